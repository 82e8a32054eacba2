/**
 * The agent as the Agents section shows it, read leniently: the live service may leave out or add
 * keys, so every part is optional and unknown settings are still listed.
 */
import type { Agent } from '../api/schemas/agent';

export interface Setting {
  name: string;
  value: string;
}

export interface PipelineStage {
  /** `transcriber`, `llm` or `synthesizer` as the toolchain names them. */
  stage: string;
  settings: Setting[];
}

export interface RouteView {
  name: string;
  utterances: string[];
  response: string | null;
  scoreThreshold: number | null;
}

export interface TaskView {
  /** `task_1`, …: the key its prompt has. */
  key: string;
  taskType: string | null;
  execution: string | null;
  pipelines: PipelineStage[][];
  routes: RouteView[];
  callSettings: Setting[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a number reads (the UI passes the browser locale's format). */
export type NumberFormat = (value: number) => string;

function valueText(value: unknown, formatNumber: NumberFormat): string {
  if (value === null) return '—';
  if (typeof value === 'number') return formatNumber(value);
  if (Array.isArray(value)) return value.map((v) => valueText(v, formatNumber)).join(', ');
  if (isObject(value)) return JSON.stringify(value);
  return String(value);
}

/** Each setting as one line of text (nested objects flattened to `a.b`). */
export function settingsOf(object: unknown, formatNumber: NumberFormat = String, prefix = ''): Setting[] {
  if (!isObject(object)) return [];
  const out: Setting[] = [];
  for (const [key, value] of Object.entries(object)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value === undefined) continue;
    if (isObject(value)) out.push(...settingsOf(value, formatNumber, name));
    else if (key === 'routes' && Array.isArray(value)) continue; // shown as routes
    else out.push({ name, value: valueText(value, formatNumber) });
  }
  return out;
}

/** The tools_config entry a pipeline stage uses (`llm` is `llm_agent`). */
const TOOL_OF_STAGE: Record<string, string> = { llm: 'llm_agent' };

function routesOf(llm: unknown): RouteView[] {
  const routes = isObject(llm) && isObject(llm.routes) && Array.isArray(llm.routes.routes) ? llm.routes.routes : [];
  return routes.filter(isObject).map((r) => ({
    name: typeof r.route_name === 'string' ? r.route_name : '',
    utterances: Array.isArray(r.utterances) ? r.utterances.map(String) : [],
    response: typeof r.response === 'string' ? r.response : null,
    scoreThreshold: typeof r.score_threshold === 'number' ? r.score_threshold : null,
  }));
}

export function taskViews(agent: Agent, formatNumber: NumberFormat = String): TaskView[] {
  return (agent.tasks ?? []).map((task, i) => {
    const key = `task_${i + 1}`;
    const tools: Json = isObject(task.tools_config) ? task.tools_config : {};
    const toolchain: Json = isObject(task.toolchain) ? task.toolchain : {};
    const declared = Array.isArray(toolchain.pipelines) ? toolchain.pipelines.filter(Array.isArray) : [];
    // Without a toolchain, the usual pipeline is shown from whichever tools are configured.
    const pipelines = declared.length ? declared : [['transcriber', 'llm', 'synthesizer'].filter((s) => isObject(tools[TOOL_OF_STAGE[s] ?? s]))];
    const llmSettings = isObject(tools.llm_agent) ? tools.llm_agent : undefined;
    return {
      key,
      taskType: typeof task.task_type === 'string' ? task.task_type : null,
      execution: typeof toolchain.execution === 'string' ? toolchain.execution : null,
      pipelines: pipelines
        .filter((p) => p.length)
        .map((p) => p.map((stage) => ({ stage: String(stage), settings: settingsOf(tools[TOOL_OF_STAGE[String(stage)] ?? String(stage)], formatNumber) }))),
      routes: routesOf(llmSettings),
      callSettings: settingsOf(task.task_config, formatNumber),
    };
  });
}
