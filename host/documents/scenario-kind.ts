// Names the scenario schema for messages (host/errors/problems.ts nameDocumentKind): an unknown key of a
// scenario says so, and lists the keys its mapping allows. Imported by every command that reads one.
import { nameDocumentKind } from '../errors/problems.js';
import { scenarioSchema } from '../scenario/scenario-schema.js';

nameDocumentKind(scenarioSchema, 'scenario (docs/sim.md)');
