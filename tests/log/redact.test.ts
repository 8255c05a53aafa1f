import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import winston from 'winston';
import { childLogger, rootLogger } from '../../src/log/logger.js';
import { clearSecrets, redact, registerSecret } from '../../src/log/redact.js';
import { fileTranscript } from '../../src/log/transcript.js';

const TOKEN = ['lip', 'S3cr3tT0k3nValue42'].join('_');
const PASSWORD = 'floodgate-pass-9';

describe('secrets never reach a log line', () => {
  afterEach(() => clearSecrets());

  it('masks registered secrets inside longer text, and anything shaped like a lichess token', () => {
    registerSecret(PASSWORD);
    expect(redact(`LOGIN kishi floodgate-300-10F,${PASSWORD}`)).toBe('LOGIN kishi floodgate-300-10F,***');
    expect(redact(`Authorization: Bearer ${TOKEN}`)).toBe('Authorization: Bearer ***');
    expect(redact(`token=${['lip', 'abcdefghijklmnop'].join('_')}`)).toBe('token=***');
  });

  it('masks secrets in messages and metadata of every child logger', () => {
    registerSecret(TOKEN);
    registerSecret(PASSWORD);
    const file = join(mkdtempSync(join(tmpdir(), 'kishi-log-')), 'test.log');
    const transport = new winston.transports.File({ filename: file });
    rootLogger.add(transport);
    const level = rootLogger.level;
    rootLogger.level = 'debug';
    const log = childLogger('test/redact');
    log.info(`connecting with ${TOKEN}`);
    log.warn('login failed', { password: PASSWORD, headers: { authorization: `Bearer ${TOKEN}` } });
    log.error(new Error(`request failed: ${TOKEN}`).message);
    return new Promise<void>((resolve) => {
      transport.on('finish', () => {
        const text = readFileSync(file, 'utf8');
        expect(text).toContain('[test/redact]');
        expect(text).toContain('connecting with ***');
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain(PASSWORD);
        rootLogger.level = level;
        resolve();
      });
      rootLogger.remove(transport);
      transport.end();
    });
  });

  it('masks secrets in wire transcripts', () => {
    registerSecret(PASSWORD);
    const file = join(mkdtempSync(join(tmpdir(), 'kishi-tr-')), 'csa.log');
    const t = fileTranscript(file);
    t.sent(`LOGIN kishi floodgate-300-10F,${PASSWORD}`);
    t.received('LOGIN:kishi OK');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/> LOGIN kishi floodgate-300-10F,\*\*\*\n/);
    expect(text).toMatch(/< LOGIN:kishi OK\n/);
    expect(text).not.toContain(PASSWORD);
  });
});
