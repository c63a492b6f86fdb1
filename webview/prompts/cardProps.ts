// What every prompt card gets from the queue.
import type { Ref } from 'react';
import type { PromptKind, PromptResult, PromptView } from '../messages';

export interface CardProps<K extends PromptKind> {
  prompt: Extract<PromptView, { kind: K }>;
  /** "1 of 3" when several prompts wait. */
  position?: string;
  answer: (key: string, result: PromptResult) => void;
  cardRef?: Ref<HTMLElement>;
}
