// A map's planned application labour (create_application: docs/decisions.md, Maps): the labours'
// rules and their items, written in the map's transaction. Loaded by lib/maps/repository.ts when
// a request first asks for one (ADR 0008): listing, reading, downloading or deleting maps, and
// drawing one without an application, never load the labours, inputs and crops services.
import type { Field } from '../platform/model';
import type { TxOp } from '../db/table';
import { labours, labourSaveOps } from '../labours/repository';
import type { LabourSave } from '../labours/service';

/** The planned application labour of a map of `field`, in the campaign `yeargroup`. */
export const plannedApplication = (userId: number, field: Field, mapId: number, yeargroup: number, date: string): Promise<LabourSave> =>
  labours.plannedApplicationOfMap(userId, field, mapId, yeargroup, date);

/** The items of a map's planned application, written in the map's transaction. */
export const applicationOps = (application: LabourSave): TxOp[] => labourSaveOps(application);
