// The daily imagery schedule (docs/imagery.md): a field job for every field.
import { queueEveryField } from '../../lib/imagery/repository';

export const handler = () => queueEveryField();
