/** pactl's output and failures, from recorded fixtures (C locale), and the pactl runner's own failures. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { MacpilotError } from '../../../../../src/errors.js';
import {
  defaultSinkName,
  pactl,
  pactlFailure,
  parseSinks,
  serverLocation,
  volumePercents,
} from '../../../../../src/platforms/linux/services/pactl.js';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../../fixtures/linux/pactl/${name}`, import.meta.url)), 'utf8');

describe('pactl list sinks', () => {
  test('the null sink of the e2e server', () => {
    expect(parseSinks(fixture('list-sinks-null.txt'))).toEqual([
      { name: 'macpilot_null', description: 'Null Output', muted: false, channels: [37, 37] },
    ]);
  });

  test('two sinks: uneven stereo muted, and a mono sink; Base Volume and properties are not read as fields', () => {
    expect(parseSinks(fixture('list-sinks-two.txt'))).toEqual([
      { name: 'speakers', description: 'Speakers', muted: true, channels: [20, 25] },
      { name: 'headset', description: 'Null Output', muted: false, channels: [64] },
    ]);
  });

  test('no sinks', () => {
    expect(parseSinks(fixture('list-sinks-none.txt'))).toEqual([]);
  });

  test('volumes above 100%', () => {
    expect(
      volumePercents('front-left: 98304 / 150% / 10.57 dB,   front-right: 98304 / 150% / 10.57 dB'),
    ).toEqual([150, 150]);
  });

  test('get-default-sink: a name, or none', () => {
    expect(defaultSinkName('macpilot_null\n')).toBe('macpilot_null');
    expect(defaultSinkName('(null)\n')).toBeUndefined();
    expect(defaultSinkName('')).toBeUndefined();
  });
});

describe('pactl failures', () => {
  test('no server: says so and where pactl looked', () => {
    const error = pactlFailure('Could not read the output volume', fixture('stderr-no-server.txt'), {
      XDG_RUNTIME_DIR: '/run/user/1000',
    });
    expect(error.render()).toMatch(/no PulseAudio or PipeWire server runs for this user/);
    expect(error.why).toContain('/run/user/1000/pulse/native');
    expect(error.why).toContain('Connection refused');
    expect(error.next).toMatch(/pipewire-pulse|pulseaudio --start/);
  });

  test('PULSE_SERVER is named when it is set', () => {
    expect(serverLocation({ PULSE_SERVER: 'tcp:10.0.0.2', XDG_RUNTIME_DIR: '/run/user/1000' })).toBe(
      'PULSE_SERVER=tcp:10.0.0.2',
    );
    expect(serverLocation({})).toMatch(/no PULSE_SERVER and no XDG_RUNTIME_DIR/);
  });

  test('no sink', () => {
    const error = pactlFailure('Could not mute the output', fixture('stderr-no-sink.txt'), {});
    expect(error.why).toMatch(/no output device/);
  });

  test('anything else quotes pactl', () => {
    expect(pactlFailure('x', 'Failure: Access to entity is restricted\n', {}).why).toBe(
      'pactl failed: Failure: Access to entity is restricted',
    );
  });

  test('pactl not installed: the package to install', async () => {
    const run = pactl(['info'], 'Could not read the output volume', { PATH: '/nonexistent' });
    await expect(run).rejects.toBeInstanceOf(MacpilotError);
    await expect(run).rejects.toMatchObject({ why: expect.stringMatching(/pactl is not installed/) });
    await expect(run).rejects.toMatchObject({ next: expect.stringContaining('pulseaudio-utils') });
  });
});
