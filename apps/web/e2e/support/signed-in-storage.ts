/**
 * An init script (`context.addInitScript(restoreSignIn, [refreshToken, profile])`) that leaves
 * in a new browser context what a sign-in on it leaves behind, the welcome already seen: the app
 * then starts signed in, as on a returning clinic's browser. Self-contained, as init scripts run
 * in the page.
 */
export function restoreSignIn([refreshToken, profile]: readonly [string, unknown]): void {
  if (localStorage.getItem('dentflow.refreshToken')) return;
  localStorage.setItem('dentflow.refreshToken', refreshToken);
  localStorage.setItem('dentflow.user', JSON.stringify(profile));
  localStorage.setItem('dentflow.welcomeSeen', '1');
}
