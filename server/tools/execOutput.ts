// What the model reads back from a command: notes, wall time, how it ended, and its output cut to
// the model's budget (head and tail kept).
import { OutputBuffer } from '../exec/outputBuffer';

const BYTES_PER_TOKEN = 4;
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;

export function capForModel(text: string, maxOutputTokens: number): string {
  const buffer = new OutputBuffer(Math.max(1, maxOutputTokens) * BYTES_PER_TOKEN);
  buffer.push(Buffer.from(text));
  return buffer.text();
}

export interface ReportFields {
  notes: string[];
  wallMs: number;
  exitCode: number | null;
  sessionId: number | null;
  output: string;
  maxOutputTokens: number;
}

export function reportForModel(r: ReportFields): string {
  const status =
    r.exitCode !== null
      ? `Process exited with code ${r.exitCode}`
      : `Process running with session ID ${r.sessionId}`;
  return [
    ...r.notes.map((note) => `Note: ${note}`),
    `Wall time: ${(r.wallMs / 1000).toFixed(3)} seconds`,
    status,
    'Output:',
    capForModel(r.output, r.maxOutputTokens),
  ].join('\n');
}

/** Reads an integer argument within bounds, or the default. */
export function boundedInteger(value: unknown, fallback: number, min: number, max: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(number)) return fallback;
  return Math.min(max, Math.max(min, Math.round(number)));
}
