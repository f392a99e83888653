/**
 * The workflow toolset: run_workflow runs several tool calls as one, each exactly as an agent would make it
 * (validated, then through the policy: mode, app lists, rate limits, consent, audit), with retries, a pause
 * after a step, what to do when one fails, and `{{step_N.field}}` references to earlier steps' structured
 * results. It spares the agent a model round trip per step.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { pause } from '../engine/kernel/observer.js';
import { structured } from '../engine/render/json.js';
import { firstLine, undoText, workflowText } from '../engine/render/workflow.js';
import { type Action, HISTORY_KEPT } from './history.js';
import { appParam } from './params.js';
import { defineTool, type NestedAnswer, READ_ONLY, toolsetTools, type ToolContext, WRITE } from './types.js';
import {
  fillReferences,
  holdsReference,
  referencedSteps,
  type StepResult,
  TemplateError,
} from './workflow-steps.js';

const MAX_STEPS = 50;

interface Undone {
  undone: { seq: number; tool: string; what: string }[];
  notUndone: { seq: number; tool: string; why: string }[];
}

/** Undoes actions taken back from the history, newest first, each through its inverse, which is not recorded. */
async function undoActions(actions: Action[], context: ToolContext): Promise<Undone> {
  const { callTool, signal } = context;
  const out: Undone = { undone: [], notUndone: [] };
  for (const action of actions) {
    const { seq, tool, inverse, unchanged } = action;
    if (!inverse) {
      const why = unchanged
        ? `it changed nothing (${unchanged})`
        : 'it cannot be undone (clicks, keys and launches cannot, nor a change whose earlier state could not be read)';
      out.notUndone.push({ seq, tool, why });
      continue;
    }
    const changed = await inverse
      .changedSince?.(context)
      .catch(
        (error: unknown) =>
          `what it left could not be read again to check that nothing changed since (${firstLine(error instanceof Error ? error.message : String(error))})`,
      );
    if (changed) {
      out.notUndone.push({ seq, tool, why: changed });
      continue;
    }
    const { result } = await callTool(inverse.tool, inverse.args, signal, { record: false });
    if (result.isError)
      out.notUndone.push({ seq, tool, why: `${inverse.tool} failed: ${firstLine(textOf(result))}` });
    else out.undone.push({ seq, tool, what: inverse.what });
  }
  return out;
}

const Step = z.strictObject({
  tool: z.string().min(1).max(64).describe('The tool to call, e.g. "click_element".'),
  args: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Its arguments; "{{step_0.field}}" reads an earlier result.'),
  retry: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe('Tries again this many times when the step fails.'),
  retry_delay_ms: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .optional()
    .describe('Pause before each retry; default 500.'),
  wait_after_ms: z.number().int().min(0).max(60_000).optional().describe('Pause after the step succeeds.'),
  on_fail: z
    .enum(['abort', 'skip', 'rollback'])
    .optional()
    .describe(
      'abort (default): stop the workflow; skip: note the failure and go on; rollback: stop and undo the ' +
        'steps done so far, newest first (values, clipboard, windows, scrolls, volume; clicks and keys cannot be undone).',
    ),
});

const StepOutcome = z.object({
  step: z.number().int(),
  tool: z.string(),
  status: z.enum(['ok', 'failed', 'skipped', 'planned']),
  attempts: z.number().int(),
  text: z.string().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
});

const WorkflowJson = z.object({
  success: z.boolean(),
  steps_completed: z.number().int(),
  steps_total: z.number().int(),
  results: z.array(StepOutcome),
  rolled_back: z.array(z.number().int()),
  error: z.string().optional(),
});
type WorkflowJson = z.infer<typeof WorkflowJson>;

const UndoJson = z.object({
  undone: z.array(z.object({ tool: z.string(), what: z.string() })),
  not_undone: z.array(z.object({ tool: z.string(), why: z.string() })),
});
type Outcome = z.infer<typeof StepOutcome>;

const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

const summary = (name: string | undefined, json: WorkflowJson, dryRun = false): string =>
  workflowText({
    name,
    dryRun,
    success: json.success,
    stepsCompleted: json.steps_completed,
    stepsTotal: json.steps_total,
    error: json.error,
    steps: json.results,
    rolledBack: json.rolled_back,
  });

export const workflowTools = toolsetTools('workflow', [
  defineTool({
    name: 'run_workflow',
    task: true,
    nested: false,
    unrecorded: true,
    title: 'Run several steps as one',
    description:
      'Run up to 50 tool calls in order, each exactly as if you made it (same validation, policy and consent), ' +
      'in one request: steps: [{tool, args, retry?, retry_delay_ms?, wait_after_ms?, on_fail?: abort|skip|rollback}]. ' +
      'A string "{{step_N.field}}" in args takes a field of step N\'s structured result (N from 0; dotted paths ' +
      'reach deeper, e.g. {{step_0.matches.0.ref}}); tools with an output schema have one. dry_run checks the ' +
      "steps without running them (what only the desktop can tell, such as a key's name or a point on screen, " +
      'is checked when a step runs). Answers a line per step and {success, steps_completed, steps_total, ' +
      'results, rolled_back, error}.',
    input: z.object({
      name: z.string().min(1).max(200).optional().describe('A name for the workflow, shown in the answer.'),
      steps: z.array(Step).min(1).max(MAX_STEPS),
      dry_run: z
        .boolean()
        .optional()
        .describe(
          "Check the steps without running them: each tool is there and may run in a workflow, and its arguments fit the tool's schema.",
        ),
    }),
    output: { schema: WorkflowJson },
    annotations: WRITE,
    handle: async (args, context): Promise<CallToolResult> => {
      const { callTool, checkCall, note, progress, signal, history } = context;
      const total = args.steps.length;
      const outcomes: Outcome[] = [];
      const results: StepResult[] = [];
      let error: string | undefined;
      let rollback = false;
      /** The history before the first step, and which step made each action since. */
      const mark = history.mark();
      // The audit log tells a check from a run.
      if (args.dry_run) note({ dry_run: 'true' });
      const stepOf = new Map<number, number>();
      for (const [index, step] of args.steps.entries()) {
        if (signal.aborted) {
          error = `cancelled before step ${index}`;
          break;
        }
        progress(index, total, `step ${index}: ${step.tool}`);
        if (args.dry_run) {
          const stepArgs = step.args ?? {};
          const problem = referencedSteps(stepArgs).some((n) => n >= index)
            ? 'it refers to a step that does not come before it'
            : checkCall(step.tool, stepArgs, (path) => holdsReference(stepArgs, path));
          outcomes.push({
            step: index,
            tool: step.tool,
            status: problem ? 'failed' : 'planned',
            attempts: 0,
            ...(problem ? { text: problem } : {}),
          });
          if (problem) error ??= `step ${index} (${step.tool}): ${problem}`;
          continue;
        }
        let stepArgs: Record<string, unknown>;
        try {
          stepArgs = fillReferences(step.args ?? {}, results, index) as Record<string, unknown>;
        } catch (failure) {
          if (!(failure instanceof TemplateError)) throw failure;
          outcomes.push({
            step: index,
            tool: step.tool,
            status: 'failed',
            attempts: 0,
            text: failure.message,
          });
          results.push(undefined);
          if (step.on_fail === 'skip') continue;
          error = `step ${index} (${step.tool}): ${failure.message}`;
          rollback = step.on_fail === 'rollback';
          break;
        }
        const before = history.count;
        let attempts = 0;
        let answer: NestedAnswer;
        for (;;) {
          attempts++;
          answer = await callTool(step.tool, stepArgs, signal);
          if (!answer.result.isError || attempts > (step.retry ?? 0) || signal.aborted) break;
          await pause(step.retry_delay_ms ?? 500, signal);
        }
        const { result, failure } = answer;
        const structured = result.structuredContent;
        const text = textOf(result);
        if (result.isError) {
          outcomes.push({ step: index, tool: step.tool, status: 'failed', attempts, text });
          results.push(undefined);
          if (step.on_fail === 'skip') continue;
          error = `step ${index} (${step.tool}) failed: ${firstLine(text)}`;
          rollback = step.on_fail === 'rollback';
          note({
            stopped_at_step: String(index),
            // A name that is no tool is the agent's own text, which the audit log never keeps.
            step_tool: failure?.kind === 'unknown_tool' ? '(unknown)' : step.tool,
            step_outcome: failure?.refusal ? 'refused' : 'failed',
            step_error: failure?.kind ?? 'answered_error',
          });
          break;
        }
        outcomes.push({
          step: index,
          tool: step.tool,
          status: 'ok',
          attempts,
          text,
          ...(structured ? { result: structured } : {}),
        });
        results.push(structured);
        for (let seq = before + 1; seq <= history.count; seq++) stepOf.set(seq, index);
        if (step.wait_after_ms) await pause(step.wait_after_ms, signal);
      }
      const undone = rollback
        ? await undoActions(history.takeBack(Number.POSITIVE_INFINITY, mark), context)
        : undefined;
      const rolledBack = [...new Set((undone?.undone ?? []).map((u) => stepOf.get(u.seq) ?? -1))];
      const notUndone = [...new Set((undone?.notUndone ?? []).map((u) => stepOf.get(u.seq) ?? -1))];
      if (undone && notUndone.length > 0) {
        error += `; not undone: ${undone.notUndone.map((u) => `step ${stepOf.get(u.seq)} (${u.tool}: ${u.why})`).join(', ')}`;
      }
      const json: WorkflowJson = {
        success: error === undefined,
        steps_completed: outcomes.filter((o) => o.status === 'ok' || o.status === 'planned').length,
        steps_total: total,
        results: outcomes,
        rolled_back: rolledBack.filter((n) => n >= 0),
        ...(error === undefined ? {} : { error }),
      };
      progress(total, total, json.success ? 'done' : 'stopped');
      return {
        content: [{ type: 'text', text: summary(args.name, json, args.dry_run) }],
        structuredContent: json,
        ...(json.success ? {} : { isError: true }),
      };
    },
  }),
  defineTool({
    name: 'undo',
    unrecorded: true,
    title: 'Undo the last actions',
    description:
      "Undo this session's last actions, newest first: values set or typed into a field, the clipboard, a " +
      "window's move, resize, minimize or restore, a scroll, the volume or mute, each put back as it was just " +
      'before. Clicks, keys and launches cannot be undone: they are named and skipped; so is a clipboard ' +
      'change when something else was copied since.',
    input: z.object({
      count: z.number().int().min(1).max(50).optional().describe('How many actions; default 1.'),
    }),
    output: { schema: UndoJson },
    annotations: WRITE,
    handle: async (args, context): Promise<CallToolResult> => {
      const asked = args.count ?? 1;
      const taken = context.history.takeBack(asked);
      if (taken.length === 0) {
        const made = context.history.count;
        const why =
          made === 0
            ? 'this session has made no action yet'
            : `an undo or a rollback already reached the ${made === 1 ? 'action' : `${made} actions`} this session made (${made === 1 ? 'it was undone, or named there if it cannot be' : 'each was undone, or named there if it cannot be'})${made > HISTORY_KEPT ? `; undo keeps the newest ${HISTORY_KEPT}` : ''}`;
        return {
          content: [{ type: 'text', text: `Nothing to undo: ${why}.` }],
          structuredContent: { undone: [], not_undone: [] },
        };
      }
      const { undone, notUndone } = await undoActions(taken, context);
      return {
        content: [{ type: 'text', text: undoText({ asked, taken: taken.length, undone, notUndone }) }],
        structuredContent: {
          undone: undone.map(({ tool, what }) => ({ tool, what })),
          not_undone: notUndone.map(({ tool, why }) => ({ tool, why })),
        },
        ...(undone.length === 0 && notUndone.length > 0 ? { isError: true } : {}),
      };
    },
  }),
  defineTool({
    name: 'start_recording',
    title: 'Record a demonstration',
    description:
      'Start recording what the person at this computer does with the keyboard and mouse, in every app or ' +
      'only in app, until stop_recording, which answers it as run_workflow steps that find elements by path ' +
      '(click_element, type_text, press_key, click_menu_item; click at a point only where no element is). One ' +
      'recording at a time; it ends with this session. What is typed is never logged. The person is asked ' +
      'first (unless MACPILOT_CONSENT=allow).',
    input: z.object({
      app: appParam.optional().describe('Record only this app (name, bundle id or pid); default: every app.'),
    }),
    output: structured.recording,
    annotations: { ...READ_ONLY, idempotentHint: false },
    asksConsent: true,
    consentDetail: (args) =>
      `What you type and click ${args.app === undefined ? 'in every app' : `in ${args.app}`} will be recorded until the agent stops the recording or this session ends, and handed to the agent as steps (keys typed into password fields and terminals are left out).`,
    handle: (args, { engine, signal, sessionEnd }) => engine.recorder.start(args.app, sessionEnd, { signal }),
  }),
  defineTool({
    name: 'stop_recording',
    title: 'Stop recording',
    description:
      'Stop the recording start_recording began and answer it as steps for run_workflow ({tool, args}, in ' +
      'order; pass them as they are), with what was left out and why (apps this server may not use, password ' +
      'fields).',
    input: z.object({}),
    output: structured.recording,
    annotations: { ...READ_ONLY, idempotentHint: false },
    handle: (_args, { engine, signal, sessionEnd }) => engine.recorder.stop({ signal }, sessionEnd),
  }),
]);
