import type { Command } from 'commander';
import { registerEval } from './eval.js';
import { registerInject } from './inject.js';

/** Registers one subcommand on the program. Each subsystem adds its own in this folder. */
export type RegisterCommand = (program: Command) => void;

/** Every subcommand, in the order they are registered (help sorts them by name). */
export const COMMANDS: readonly RegisterCommand[] = [registerEval, registerInject];
