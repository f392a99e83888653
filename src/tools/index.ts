/** Every tool macpilot has, in catalog order. */
import { appsTools } from './apps.js';
import { clipboardTools } from './clipboard.js';
import { inputTools } from './input.js';
import { finderTools } from './finder.js';
import { menusTools, statusBarTools } from './menus.js';
import { screenTools } from './screen.js';
import { scriptingTools } from './scripting.js';
import { workflowTools } from './workflow.js';
import { sessionTools } from './session.js';
import { systemTools } from './system.js';
import { testingTools } from './testing.js';
import type { ToolDefinition } from './types.js';
import { uiTools } from './ui.js';
import { waitTools } from './wait.js';
import { windowsTools } from './windows.js';

export const allTools: readonly ToolDefinition[] = [
  ...uiTools,
  ...waitTools,
  ...inputTools,
  ...appsTools,
  ...windowsTools,
  ...screenTools,
  ...clipboardTools,
  ...menusTools,
  ...statusBarTools,
  ...systemTools,
  ...finderTools,
  ...scriptingTools,
  ...workflowTools,
  ...testingTools,
  ...sessionTools,
];
