/**
 * The environment an app macpilot starts (launch_app, relaunch_app) gets: each toolkit's own switch for its
 * accessibility tree on, whatever the desktop's switch says (Chromium and Electron read ACCESSIBILITY_ENABLED,
 * and QT_ACCESSIBILITY too; Qt QT_LINUX_ACCESSIBILITY_ALWAYS_ON; Gecko GNOME_ACCESSIBILITY), and the variables
 * that hide GTK apps removed.
 */
export function accessibleEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const accessible: NodeJS.ProcessEnv = {
    ...env,
    ACCESSIBILITY_ENABLED: '1',
    QT_ACCESSIBILITY: '1',
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
    GNOME_ACCESSIBILITY: '1',
  };
  delete accessible.NO_AT_BRIDGE;
  delete accessible.GTK_A11Y;
  return accessible;
}
