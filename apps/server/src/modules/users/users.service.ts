import type { AppContext } from '../../context';
import { listPlannerUsers } from './users.repository';

export function createUsersService(ctx: AppContext) {
  return {
    /** Verified users with the planner role, for a supervisor assigning a case's planner. */
    planners: () => listPlannerUsers(ctx.db),
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
