/**
 * The chat of one game: greetings at the start and the end (config `greeting`), answers to the commands
 * of chat.ts (`!eval`, `!queue`, `!wait`...). Sent without waiting for it, so a failed chat post never
 * delays a move (lichess-bot#1240).
 */
import type winston from 'winston';
import type { GreetingConfig } from '../../../config/sections/lichess.js';
import { answerChat, capChat, formatGreeting } from '../chat.js';
import type { ChatContext } from '../chat.js';
import type { LichessClient } from '../client.js';
import type { ChatLineEvent } from '../types.js';

export interface GameChatDeps {
  readonly client: LichessClient;
  readonly gameId: string;
  readonly log: winston.Logger;
  readonly greeting: GreetingConfig;
  /** Our name and the opponent's, for the greeting templates. */
  readonly names: () => { me: string; opponent: string };
  /**
   * The players' and spectators' chats are one room (lishogi, server-profile.ts `oneChatRoom`): the
   * spectators' greetings are not sent (they would reach the opponent) and `!eval` is not answered.
   */
  readonly oneRoom?: boolean;
}

export class GameChat {
  constructor(private readonly deps: GameChatDeps) {}

  /** Posts `text` to a room (capped to lichess's length); never waits, never fails the game. */
  say(room: 'player' | 'spectator', text: string): void {
    if (text.trim() === '') return;
    const { client, gameId, log } = this.deps;
    void client.request('chat', { args: [gameId], form: { room, text: capChat(text) } }).then((r) => {
      if (r.isErr) log.debug(`game ${gameId}: chat failed: ${r.error.message}`);
    });
  }

  /** The greetings of the game's start. */
  hello(): void {
    const g = this.deps.greeting;
    this.say('player', formatGreeting(g.hello, this.deps.names()));
    if (this.deps.oneRoom !== true) this.say('spectator', formatGreeting(g.helloSpectators, this.deps.names()));
  }

  /** The greetings of the game's end. */
  goodbye(): void {
    const g = this.deps.greeting;
    this.say('player', formatGreeting(g.goodbye, this.deps.names()));
    if (this.deps.oneRoom !== true) this.say('spectator', formatGreeting(g.goodbyeSpectators, this.deps.names()));
  }

  /** Answers a chat line when it is a command for us. */
  answer(chat: ChatLineEvent, context: ChatContext): void {
    const reply = answerChat(chat, { ...context, ...(this.deps.oneRoom === true ? { oneRoom: true } : {}) });
    if (reply) this.say(reply.room, reply.text);
  }
}
