// The configs the register-image tests share (examples/vectors/configs/): MTU 9216 with 50/30/20,
// a 0 % TC beside a strict TC, and PFC on two priorities over a 2 km cable.
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';

export const E2E_CONFIGS = ['mtu9216-50-30-20', 'zero-strict', 'pfc-2km'].map((c) => join(packageRoot(), 'examples', 'vectors', 'configs', `${c}.yaml`));
