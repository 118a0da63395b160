// The daily imagery schedule (docs/imagery.md, "Tiles"): a tile job for the fields of every Sentinel-2 tile.
import { queueEveryField } from '../../lib/imagery/repository';

export const handler = () => queueEveryField();
