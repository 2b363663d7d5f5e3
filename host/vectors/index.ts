// The registered golden-vector kernels. Add a kernel by importing its module and listing it here.
import type { VectorKernel } from './registry.js';

export const vectorKernels: VectorKernel[] = [];
