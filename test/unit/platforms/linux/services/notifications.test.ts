/** What macpilot hands org.freedesktop.Notifications (the body and the sound hints), and a session without a bus. */
import { describe, expect, test } from 'vitest';
import {
  linuxNotifications,
  notificationBody,
  soundHints,
} from '../../../../../src/platforms/linux/services/notifications.js';
import { linuxReveal } from '../../../../../src/platforms/linux/services/reveal.js';

const bus = { variant: (signature: string, value: unknown) => ({ signature, value }) };

describe('notification body', () => {
  test('the subtitle on its own line above the message', () => {
    expect(notificationBody({ title: 't', subtitle: 'Build', message: 'passed' }, false)).toBe(
      'Build\npassed',
    );
    expect(notificationBody({ title: 't', message: 'passed' }, false)).toBe('passed');
    expect(notificationBody({ title: 't', subtitle: 'only', message: '' }, false)).toBe('only');
  });

  test('escaped for daemons that read markup, so that text shows as typed', () => {
    expect(notificationBody({ title: 't', message: 'a < b && <b>c</b>' }, true)).toBe(
      'a &lt; b &amp;&amp; &lt;b&gt;c&lt;/b&gt;',
    );
    expect(notificationBody({ title: 't', message: 'a < b' }, false)).toBe('a < b');
  });
});

describe('sound hints', () => {
  test('none asked, or false: silence', () => {
    expect(soundHints(bus, undefined)).toEqual({ 'suppress-sound': { signature: 'b', value: true } });
    expect(soundHints(bus, false)).toEqual({ 'suppress-sound': { signature: 'b', value: true } });
  });

  test('true: the theme sound for a new message', () => {
    expect(soundHints(bus, true)).toEqual({
      'sound-name': { signature: 's', value: 'message-new-instant' },
      'suppress-sound': { signature: 'b', value: false },
    });
  });

  test('a name: that sound', () => {
    expect(soundHints(bus, 'complete')).toMatchObject({
      'sound-name': { signature: 's', value: 'complete' },
    });
  });
});

describe('no session bus', () => {
  test('DBUS_SESSION_BUS_ADDRESS unset: says so', async () => {
    await expect(linuxNotifications({}).send({ title: 't', message: 'm' })).rejects.toMatchObject({
      what: 'Could not show the notification',
      why: expect.stringContaining('DBUS_SESSION_BUS_ADDRESS is not set'),
    });
  });

  test('a bus address nobody listens on: names it', async () => {
    const env = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/macpilot-bus' };
    await expect(linuxReveal(env).reveal('/tmp')).rejects.toMatchObject({
      what: 'Could not show /tmp in the file manager',
      why: expect.stringContaining('cannot use the session bus at unix:path=/nonexistent/macpilot-bus'),
    });
  });
});
