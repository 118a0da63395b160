// A map's planned application labour (create_application: docs/decisions.md, Maps): the labours'
// rules and their items, written in the map's transaction. Loaded by lib/maps/repository.ts when
// a request first asks for one (ADR 0008): listing, reading, downloading or deleting maps, and
// drawing one without an application, never load the labours, inputs and crops services.
export { labourSaveOps, labours } from '../labours/repository';
