import { describe, expect, it } from 'vitest';
import { type SwayNode, swayWindows } from '../../../../../../src/platforms/linux/helper/wayland/sway-ipc.js';

const rect = { x: 0, y: 0, width: 100, height: 100 };
const node = (id: number, type: SwayNode['type'], parts: Partial<SwayNode> = {}): SwayNode => ({
  id,
  type,
  name: `n${id}`,
  rect,
  window_rect: rect,
  focused: false,
  nodes: [],
  floating_nodes: [],
  ...parts,
});

describe("sway's windows", () => {
  it('front to back: floating windows over the tiles, the last raised first; the scratchpad as minimized', () => {
    const tree = node(1, 'root', {
      nodes: [
        node(2, 'output', {
          nodes: [
            node(3, 'workspace', {
              nodes: [node(10, 'con', { pid: 10 }), node(11, 'con', { pid: 11 })],
              floating_nodes: [node(20, 'floating_con', { pid: 20 }), node(21, 'floating_con', { pid: 21 })],
            }),
            node(4, 'workspace', {
              name: '__i3_scratch',
              floating_nodes: [node(30, 'floating_con', { pid: 30 })],
            }),
          ],
        }),
      ],
    });
    expect(swayWindows(tree).map((w) => [w.node.id, w.scratchpad])).toEqual([
      [21, false],
      [20, false],
      [10, false],
      [11, false],
      [30, true],
    ]);
  });
});
