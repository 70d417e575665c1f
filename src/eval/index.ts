/** Evaluation metrics and their text formatting, shared by the `triage eval` commands. */
export { formatBinaryReport, formatClassificationReport } from './format.js';
export {
  type BinaryReport,
  BinaryTally,
  type ClassificationReport,
  ClassificationTally,
  type Misclassified,
  preview,
} from './metrics.js';
export {
  curveAt,
  indicesByGroup,
  type Outcome,
  pointForQuality,
  pointForShare,
  type RoutingCurve,
  type RoutingPoint,
  randomShareForQuality,
  routingCurve,
  shareForQuality,
} from './routing.js';
