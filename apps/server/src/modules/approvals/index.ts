// What the approvals module offers other modules; they import nothing else from it. The cases
// module receives its recorder as a port in app.ts instead (approvals sits above cases).
export { approvalsMadeBy } from './approvals-by-user';
