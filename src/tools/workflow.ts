/**
 * The workflow toolset: run_workflow runs several tool calls as one, each exactly as an agent would make it
 * (validated, then through the policy: mode, app lists, rate limits, consent, audit), with retries, a pause
 * after a step, what to do when one fails, and `{{step_N.field}}` references to earlier steps' structured
 * results. It spares the agent a model round trip per step.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { pause } from '../engine/observer.js';
import { MacpilotError } from '../errors.js';
import { dataNote } from '../untrusted.js';
import { defineTool, toolsetTools, WRITE } from './types.js';
import { fillReferences, referencedSteps, type StepResult, TemplateError } from './workflow-steps.js';

const MAX_STEPS = 50;

const Step = z.object({
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
    .enum(['abort', 'skip'])
    .optional()
    .describe('abort (default): stop the workflow; skip: note the failure and go on.'),
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
type Outcome = z.infer<typeof StepOutcome>;

const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

/** The first line of a step's answer: enough for the summary; its structured result carries the rest. */
const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

function summary(name: string | undefined, json: WorkflowJson): string {
  const title = name ? `Workflow ${JSON.stringify(name)}` : 'Workflow';
  const head = json.success
    ? `${title}: ${json.steps_completed} of ${json.steps_total} steps done`
    : `${title} stopped: ${json.error}`;
  const lines = json.results.map((r) => {
    const tries = r.attempts > 1 ? ` after ${r.attempts} tries` : '';
    return `${r.step}. ${r.tool}: ${r.status}${tries}${r.text ? ` - ${firstLine(r.text)}` : ''}`;
  });
  return `${head} ${dataNote()}:\n${lines.join('\n')}`;
}

export const workflowTools = toolsetTools('workflow', [
  defineTool({
    name: 'run_workflow',
    task: true,
    nested: false,
    title: 'Run several steps as one',
    description:
      'Run up to 50 tool calls in order, each exactly as if you made it (same validation, policy and consent), ' +
      'in one request: steps: [{tool, args, retry?, retry_delay_ms?, wait_after_ms?, on_fail?: abort|skip}]. ' +
      'A string "{{step_N.field}}" in args takes a field of step N\'s structured result (N from 0; dotted paths ' +
      'reach deeper, e.g. {{step_0.matches.0.ref}}); tools with an output schema have one. dry_run checks the ' +
      'steps without running them. Answers a line per step and {success, steps_completed, steps_total, ' +
      'results, rolled_back, error}.',
    input: z.object({
      name: z.string().min(1).max(200).optional().describe('A name for the workflow, shown in the answer.'),
      steps: z.array(Step).min(1).max(MAX_STEPS),
      dry_run: z
        .boolean()
        .optional()
        .describe('Check the steps (tools exist, arguments valid) without running them.'),
    }),
    output: { schema: WorkflowJson },
    annotations: WRITE,
    handle: async (args, { callTool, progress, signal, enabledTools }): Promise<CallToolResult> => {
      const total = args.steps.length;
      const outcomes: Outcome[] = [];
      const results: StepResult[] = [];
      let error: string | undefined;
      for (const [index, step] of args.steps.entries()) {
        if (signal.aborted) {
          error = `cancelled before step ${index}`;
          break;
        }
        progress(index, total, `step ${index}: ${step.tool}`);
        if (args.dry_run) {
          const problem = !enabledTools.includes(step.tool)
            ? `${step.tool} is not a tool this server lists`
            : step.tool === 'run_workflow'
              ? 'a workflow cannot run another workflow'
              : referencedSteps(step.args).some((n) => n >= index)
                ? 'it refers to a step that does not come before it'
                : undefined;
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
          break;
        }
        let attempts = 0;
        let result: CallToolResult;
        for (;;) {
          attempts++;
          result = await callTool(step.tool, stepArgs, signal);
          if (!result.isError || attempts > (step.retry ?? 0) || signal.aborted) break;
          await pause(step.retry_delay_ms ?? 500, signal);
        }
        const structured = result.structuredContent;
        const text = textOf(result);
        if (result.isError) {
          outcomes.push({ step: index, tool: step.tool, status: 'failed', attempts, text });
          results.push(undefined);
          if (step.on_fail === 'skip') continue;
          error = `step ${index} (${step.tool}) failed: ${firstLine(text)}`;
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
        if (step.wait_after_ms) await pause(step.wait_after_ms, signal);
      }
      const json: WorkflowJson = {
        success: error === undefined,
        steps_completed: outcomes.filter((o) => o.status === 'ok' || o.status === 'planned').length,
        steps_total: total,
        results: outcomes,
        rolled_back: [],
        ...(error === undefined ? {} : { error }),
      };
      progress(total, total, json.success ? 'done' : 'stopped');
      if (args.dry_run && !json.success) {
        throw new MacpilotError({
          what: 'The workflow would not run',
          why: error ?? 'a step is not valid',
          next: 'fix the steps named below and run it again',
        });
      }
      return {
        content: [{ type: 'text', text: summary(args.name, json) }],
        structuredContent: json,
        ...(json.success ? {} : { isError: true }),
      };
    },
  }),
]);
