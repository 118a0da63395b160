// POST /files (spec 2, "Creating a layer from a file", step 1; docs/imagery.md).
import { fileField } from '../../lib/http/body';
import { endpoint } from '../../lib/http/endpoint';
import { fileError, readLayerFile } from '../../lib/imagery/layer-file';
import { layers } from '../../lib/imagery/layers-repository';
import { uploadLayerFileRoute } from '../../schemas/imagery';

export const upload = endpoint(uploadLayerFileRoute, {
  handler: async ({ body, principal }) => {
    const file = fileField(body, 'file');
    if (!file) throw fileError('send the zip as multipart/form-data under the field file');
    return { data: await layers.upload(principal, await readLayerFile(file.content)) };
  },
});
