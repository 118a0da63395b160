// The worker job a field deletion hands over (lib/workers/field-deleted.ts removes what hangs from the field, each area's part in lib/<area>/field-deleted.ts).
export const FIELD_DELETED_JOB = 'FIELD_DELETED.V1';
