/**
 * The draw offer and resignation policy from our recent search scores (lichess-bot's
 * draw_or_resign), shared by every front-end that asks the Thinker (lichess, lishogi, the local
 * page): a section of its own so that the Thinker and the page need not import the lichess section.
 */
import { bool, int, section } from './section.js';

export interface DrawOrResignConfig {
  readonly resignEnabled: boolean;
  readonly resignScoreCp: number;
  readonly resignMoves: number;
  readonly offerDrawEnabled: boolean;
  readonly offerDrawScoreCp: number;
  readonly offerDrawMoves: number;
  readonly offerDrawPieces: number;
  readonly acceptDraws: boolean;
  readonly resignForEgtbMinusTwo: boolean;
  readonly offerDrawForEgtbZero: boolean;
}

/** The schema of a `drawOrResign` section. */
export const drawOrResignSection = section('Draw offers and resignation from our recent search scores (lichess-bot draw_or_resign).', {
  resignEnabled: bool('resign when every one of the last resignMoves scores is at or below resignScoreCp', false),
  resignScoreCp: int('resign threshold, centipawns from our view', -1000),
  resignMoves: int('consecutive searches below the threshold before resigning', 3, 1),
  offerDrawEnabled: bool('offer (and accept) a draw when the last offerDrawMoves scores are within offerDrawScoreCp of 0', true),
  offerDrawScoreCp: int('draw window, centipawns', 0, 0),
  offerDrawMoves: int('consecutive searches inside the window before offering', 10, 1),
  offerDrawPieces: int('offer only with at most this many pieces on the board, kings included', 10, 2),
  acceptDraws: bool("accept the opponent's draw offer when our own draw condition holds", true),
  resignForEgtbMinusTwo: bool('with resignEnabled: resign when the online tablebase says the position is lost', true),
  offerDrawForEgtbZero: bool('with offerDrawEnabled: offer a draw when the online tablebase says the position is drawn', true),
});
