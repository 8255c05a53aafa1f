import { section } from './section.js';

export interface LearningConfig {
  readonly online: boolean;
}

export const learningSection = section('Learning from our own games (TD-Leaf, KnightCap style).', {
  online: { type: 'boolean', default: false, description: "update the live weights after every finished game" },
});
