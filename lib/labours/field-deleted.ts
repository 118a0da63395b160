// A deleted field's labours: each uuid is free again once its labour is gone (work orders list only
// labours that exist). Its campaigns take their labours out of their farm's tally as they go (each
// in one transaction, on condition that it is as read: a job run again takes nothing twice); no
// labour is written to a deleted field (lib/labours/repository.ts), so what they hold is final.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { keys } from '../db/keys';
import { getItem, type Item, transact } from '../db/table';
import { campaignWithdrawal } from '../fields/campaigns';
import type { FieldDeletedPart } from '../platform/field-deleted';

const conditionFailed = (error: unknown) => error instanceof TransactionCanceledException;

export const laboursOnFieldDeleted: FieldDeletedPart = {
  pointers: (item, fieldId) => (item.kind === 'labour' ? [keys.labourRef(String(item.labour_uuid), fieldId)] : []),
  removes: ['campaign'],
  async before(items) {
    for (const listed of items.filter((item) => item.kind === 'campaign')) {
      const key = { pk: String(listed.pk), sk: String(listed.sk) };
      let campaign: Item | undefined = listed;
      for (let attempt = 0; campaign; attempt++) {
        try {
          await transact(campaignWithdrawal(campaign));
          break;
        } catch (error) {
          if (!conditionFailed(error) || attempt >= 5) throw error;
          // not as listed: gone (an earlier run of the job took it out), or changed before its field went
          campaign = await getItem(key);
        }
      }
    }
  },
};
