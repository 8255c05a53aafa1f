/**
 * Game chat: greetings with `{me}`/`{opponent}` placeholders and the lichess-bot commands
 * (`lib/conversation.py`): `!help`/`!commands`, `!name`, `!eval` (spectators only, or ourselves), `!wait`
 * (extends the abort timer while the game can still be aborted), `!queue`. Every message is capped at 140
 * characters: lichess answers 400 to longer ones, and lichess-bot#1240 shows a failed chat post must never
 * hold up a move, so the game handler sends chat without waiting for it. Pure.
 */
import type { SearchInfo } from '../../player/player.js';
import type { ChatLineEvent } from './types.js';
import { scoreToCp } from '../../bot/thinker/draw-or-resign.js';

export const MAX_CHAT_LENGTH = 140;

/** Cuts a message to what lichess accepts, marking the cut with an ellipsis. */
export function capChat(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_CHAT_LENGTH ? text : chars.slice(0, MAX_CHAT_LENGTH - 1).join('') + '…';
}

/** Replaces `{me}` and `{opponent}`; an empty template stays empty (nothing is sent). */
export function formatGreeting(template: string, names: { readonly me: string; readonly opponent: string }): string {
  return capChat(template.replace(/\{me\}/g, names.me).replace(/\{opponent\}/g, names.opponent).trim());
}

export interface ChatReply {
  readonly room: 'player' | 'spectator';
  readonly text: string;
}

/** What the commands may read or do. */
export interface ChatContext {
  /** Our lichess user name. */
  readonly me: string;
  /** The engine's name and version. */
  readonly engineName: string;
  /** Our latest search, if any. */
  readonly lastSearch: () => SearchInfo | undefined;
  /** Extends the abort timer by `ms`; false when the game can no longer be aborted. */
  readonly extendAbort: (ms: number) => boolean;
  /** Challenges waiting (for `!queue`). */
  readonly queued: () => number;
  /**
   * The players' and spectators' chats are one room (lishogi): a line's `room` says nothing (always
   * `player`), every reply is read by the opponent, so `!eval` is never told to anyone but ourselves.
   */
  readonly oneRoom?: boolean;
}

export const WAIT_EXTENSION_MS = 60_000;

const formatScore = (info: SearchInfo): string => {
  if ('mate' in info.score) return `mate in ${Math.ceil(Math.abs(info.score.mate) / 2)}${info.score.mate < 0 ? ' (against me)' : ''}`;
  const cp = scoreToCp(info.score);
  return `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
};

/** The reply to one chat line, or undefined when it is not a command for us. */
export function answerChat(line: ChatLineEvent, ctx: ChatContext): ChatReply | undefined {
  const text = line.text.trim();
  if (!text.startsWith('!')) return undefined;
  const fromMe = line.username.toLowerCase() === ctx.me.toLowerCase();
  const command = text.slice(1).split(/\s+/)[0]?.toLowerCase() ?? '';
  const oneRoom = ctx.oneRoom === true;
  // One room: answer where everyone reads (lishogi writes both rooms to the game's one chat).
  const reply = (t: string): ChatReply => ({ room: oneRoom ? 'player' : line.room, text: capChat(t) });
  switch (command) {
    case 'help':
    case 'commands':
      return reply('Supported commands: !wait (wait a minute for my first move), !name, !eval (spectators), !queue');
    case 'name':
      return reply(`${ctx.me} running ${ctx.engineName}`);
    case 'eval': {
      if (oneRoom && !fromMe) return reply('Players and spectators share this chat, so I keep the eval to myself during the game.');
      if (line.room !== 'spectator' && !fromMe) return reply("I don't tell that to my opponent, sorry.");
      const info = ctx.lastSearch();
      if (info === undefined) return reply("I haven't searched yet.");
      const pv = info.pv.slice(0, 6).join(' ');
      return reply(`${formatScore(info)} at depth ${info.depth}, ${info.nodes} nodes${pv ? `, pv ${pv}` : ''}`);
    }
    case 'wait':
      return ctx.extendAbort(WAIT_EXTENSION_MS)
        ? reply(`Waiting ${WAIT_EXTENSION_MS / 1000} seconds...`)
        : reply('The game has started; !wait only works before the first moves.');
    case 'queue': {
      const n = ctx.queued();
      return reply(n === 0 ? 'No challenges queued.' : `${n} challenge(s) queued.`);
    }
    default:
      return undefined;
  }
}
