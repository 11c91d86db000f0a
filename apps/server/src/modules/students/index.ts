// What the students module offers other modules; they import nothing else from it.
export { claimInvitation, currentStudentDiscount } from './students.service';
