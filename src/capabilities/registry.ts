import { readFileSync } from 'node:fs';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { parseYaml } from '../core/yaml.js';
import {
  type Capability,
  type CapabilityInput,
  CapabilitySchema,
  RegistryFileSchema,
} from './capability.js';

const validateCapability = compileConfig(CapabilitySchema, 'capability');
const validateFile = compileConfig(RegistryFileSchema, 'capability registry');

/**
 * The capabilities an agent has, in registration order (which is the order selections list
 * them in). Built in code with {@link CapabilityRegistry.register} or loaded from a YAML or JSON
 * file with {@link CapabilityRegistry.fromFile}; every capability is validated on the way in, and
 * a duplicate name is an error rather than a silent replacement.
 *
 * The registry may grow after a selector was built from it ("dynamic discovery"): `version`
 * changes on every registration, and selectors recompile their local matcher when it does.
 */
export class CapabilityRegistry {
  readonly #byName = new Map<string, Capability>();
  readonly #all: Capability[] = [];
  #version = 0;

  /** A registry holding `capabilities`, validated as if they were the file `source`. */
  constructor(capabilities: readonly CapabilityInput[] = [], source = 'capability registry') {
    const issues = duplicateIssues(capabilities, '');
    if (issues.length > 0) throw new ConfigError(source, issues);
    capabilities.forEach((capability, index) => {
      this.#add(validateCapability(structuredClone(capability), `${source}: capability ${index}`));
    });
  }

  /**
   * Loads a registry file: `.json` is read as JSON, anything else as YAML (`.yaml`, `.yml`).
   * Throws a {@link ConfigError} naming the file and every bad field (unknown keys, missing or
   * wrong values, duplicate names), or saying why the file could not be read or parsed.
   */
  static fromFile(path: string): CapabilityRegistry {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError(path, [{ path: '', message: `cannot be read (${code})` }]);
    }
    let value: unknown;
    try {
      value = path.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text);
    } catch (error) {
      const kind = path.toLowerCase().endsWith('.json') ? 'JSON' : 'YAML';
      const message = (error as Error).message.split('\n')[0];
      throw new ConfigError(path, [{ path: '', message: `is not valid ${kind}: ${message}` }]);
    }
    return CapabilityRegistry.fromObject(value, path);
  }

  /** A registry from a parsed file (`{ capabilities: [...] }`), validated as `source`. */
  static fromObject(value: unknown, source = 'capability registry'): CapabilityRegistry {
    const file = validateFile(structuredClone(value), source);
    const issues = duplicateIssues(file.capabilities, '/capabilities');
    if (issues.length > 0) throw new ConfigError(source, issues);
    const registry = new CapabilityRegistry();
    for (const capability of file.capabilities) registry.#add(capability);
    return registry;
  }

  /** Adds a capability. Throws a {@link ConfigError} when it is invalid or its name is taken. */
  register(capability: CapabilityInput): this {
    const source = `capability ${JSON.stringify(String(capability?.name))}`;
    const valid = validateCapability(structuredClone(capability), source);
    if (this.#byName.has(valid.name)) {
      throw new ConfigError(source, [{ path: '/name', message: 'is already registered' }]);
    }
    this.#add(valid);
    return this;
  }

  /** Every capability, in registration order. */
  all(): readonly Capability[] {
    return this.#all;
  }

  /** The always-active capabilities, in registration order. */
  alwaysActive(): readonly Capability[] {
    return this.#all.filter((capability) => capability.alwaysActive);
  }

  /** The original design's `get_all_capabilities()`: {@link all}. */
  getAllCapabilities(): readonly Capability[] {
    return this.all();
  }

  /** The original design's `get_always_active_capability_names()`. */
  getAlwaysActiveCapabilityNames(): string[] {
    return this.alwaysActive().map((capability) => capability.name);
  }

  get(name: string): Capability | undefined {
    return this.#byName.get(name);
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  get size(): number {
    return this.#all.length;
  }

  /** Changes whenever a capability is registered. */
  get version(): number {
    return this.#version;
  }

  #add(capability: Capability): void {
    this.#byName.set(capability.name, Object.freeze(capability));
    this.#all.push(capability);
    this.#version++;
  }
}

/** One issue per name used twice, pointing at the second use and naming the first. */
function duplicateIssues(
  capabilities: readonly { readonly name?: unknown }[],
  prefix: string,
): ConfigIssue[] {
  const first = new Map<unknown, number>();
  const issues: ConfigIssue[] = [];
  capabilities.forEach((capability, index) => {
    const name = capability?.name;
    if (typeof name !== 'string') return;
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, index);
    else {
      issues.push({
        path: `${prefix}/${index}/name`,
        message: `duplicates the name ${JSON.stringify(name)} of ${prefix}/${earlier}`,
      });
    }
  });
  return issues;
}
