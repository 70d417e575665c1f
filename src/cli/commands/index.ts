import type { Command } from 'commander';
import { registerBench } from './bench.js';
import { registerCalibrate } from './calibrate.js';
import { registerCapabilities } from './capabilities.js';
import { registerContext } from './context.js';
import { registerEval } from './eval.js';
import { registerGuidance } from './guidance.js';
import { registerInject } from './inject.js';
import { registerLlm } from './llm.js';
import { registerPipeline } from './pipeline.js';
import { registerServe } from './serve.js';
import { registerTier } from './tier.js';
import { registerTrain } from './train.js';

/** Registers one subcommand on the program. Each subsystem adds its own in this folder. */
export type RegisterCommand = (program: Command) => void;

/** Every subcommand, in the order they are registered (help sorts them by name). */
export const COMMANDS: readonly RegisterCommand[] = [
  registerEval,
  registerLlm,
  registerContext,
  registerCapabilities,
  registerGuidance,
  registerPipeline,
  registerInject,
  registerTier,
  registerCalibrate,
  registerTrain,
  registerBench,
  registerServe,
];
