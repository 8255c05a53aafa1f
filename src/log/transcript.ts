/**
 * Wire transcripts, one file per protocol connection: every line sent (`>`) and received (`<`),
 * timestamped, with secrets masked, as python-chess logs engine traffic and shogihome keeps its csa log.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { redact } from './redact.js';

/** Receives the lines of one protocol connection. */
export interface Transcript {
  /** A line we sent. */
  sent(line: string): void;
  /** A line we received. */
  received(line: string): void;
  /** An event that is not a line (connect, close, error). */
  note(text: string): void;
}

/** A transcript that drops everything (transcripts disabled, tests). */
export const nullTranscript: Transcript = { sent() {}, received() {}, note() {} };

/** A transcript appended synchronously to `file`, so nothing is lost when the process dies. */
export function fileTranscript(file: string): Transcript {
  mkdirSync(dirname(file), { recursive: true });
  const write = (mark: string, text: string): void => {
    appendFileSync(file, `${new Date().toISOString()} ${mark} ${redact(text)}\n`);
  };
  return {
    sent: (line) => write('>', line),
    received: (line) => write('<', line),
    note: (text) => write('#', text),
  };
}

/** A transcript kept in memory (tests, and the last lines of an engine shown after a crash). */
export function memoryTranscript(limit = 1000): Transcript & { readonly lines: string[] } {
  const lines: string[] = [];
  const push = (mark: string, text: string): void => {
    lines.push(`${mark} ${redact(text)}`);
    if (lines.length > limit) lines.shift();
  };
  return { lines, sent: (l) => push('>', l), received: (l) => push('<', l), note: (t) => push('#', t) };
}
