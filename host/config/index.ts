/**
 * The DCB configuration module. Everything a consumer needs:
 *
 *     import { loadConfig, parseConfig, type DcbConfig } from './index.js';
 *     const { config, warnings } = loadConfig('examples/configs/converged.yaml');
 *     config.port.speed        // bit/s (number), config.port.cable in metres, config.port.mtu bytes
 *     config.ets               // always present (derived from pg, or 802.1Q strict defaults)
 *     config.pfc.headroom      // 'auto' | bytes: for 'auto' call computeHeadroom from host/analysis/headroom.ts
 *     config.app[i].selector   // 1..5, with config.app[i].selector_name
 *
 * parseConfig/loadConfig throw InputError (`path: rule` problems, exit 2 in the CLI). Keys, units,
 * defaults and rules: docs/config.md. The schema module's header lists the invariants.
 */
export * from './schema.js';
export { configWarnings } from './warnings.js';
export { configJsonSchema } from './json-schema.js';
export { loadConfig, readDocument, parseDocumentText } from './load.js';
