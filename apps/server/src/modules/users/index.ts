// What the users module offers other modules; they import nothing else from it.
export { profilePatchOf, toUserProfile } from './user-profile';
export {
  findUserByEmail,
  findUserById,
  findUserByIdForUpdate,
  findUserByLogin,
  insertUser,
  isEmailTaken,
  isNicknameTaken,
  markUserVerified,
  uniqueViolationOf,
  updateUser,
  type UserRow,
} from './users.repository';
export type { UsersService } from './users.service';
