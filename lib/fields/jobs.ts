// The worker job a field deletion hands over (lib/fields/cleanup.ts removes what hangs from the field).
export const FIELD_DELETED_JOB = 'FIELD_DELETED.V1';
