/** The signed-in user's own account: profile, password, two-factor, sessions, export, deletion. */
export { accountQuery, sessionsQuery, accountKeys } from './api';
export { AccountFacts, UsernameForm, EmailForm } from './profile-forms';
export { PasswordForm } from './password-form';
export { TwoFactorPanel } from './two-factor-panel';
export { SessionsPanel } from './sessions-panel';
export { DataExportPanel, DeleteAccountPanel } from './data-panels';
export { BackupCodesView } from './backup-codes';
