/** Back-office people screens: users, one user, admins, password reset and the audit log. */
export { UserList } from './user-list';
export { UserDetail, type Viewer } from './user-detail';
export { AdminsManager } from './admins';
export { AdminResetPasswordForm } from './reset-password';
export { AuditLog } from './audit-log';
export { AuditDiff, diffSnapshots } from './audit-diff';
