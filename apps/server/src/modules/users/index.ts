// What the users module offers other modules; they import nothing else from it.
export { avatarKeyOf } from './avatar-key';
export { assertProfileComplete, profilePatchOf, toUserProfile } from './user-profile';
export {
  createUser,
  findUserByEmail,
  findUserById,
  findUserByIdForUpdate,
  findUserByLogin,
  findUsersByIds,
  isEmailTaken,
  isNicknameTaken,
  markUserVerified,
  recordSignInPlatform,
  setUserPassword,
  uniqueViolationOf,
  updateUserProfile,
  type UserRow,
} from './user-records';
export type { UsersService } from './users.service';
