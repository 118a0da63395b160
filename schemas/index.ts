// The route registry: every route and worker, grouped into the services (CloudFormation stacks)
// that deploy them (docs/adr/0006-services.md). The serverless plugin generates each service's
// functions, events and roles from this list; the OpenAPI document lists the routes in this order.

import { buildOpenApi } from '../lib/http/openapi';
import type { RouteDef, ServiceDef } from '../lib/http/route';
import { changeRoutes } from './changes';
import { cropRoutes } from './crops';
import { farmMetadataRoutes } from './farm-metadata';
import { fieldsRoutes } from './fields';
import { imageryRoutes } from './imagery';
import { inputRoutes } from './inputs';
import { labourRoutes } from './labours';
import { livestockRoutes } from './livestock';
import { mapRoutes } from './maps';
import { notificationRoutes } from './notifications';
import { platformRoutes } from './platform';
import { rotationRoutes } from './rotations';
import { samplingRoutes } from './samplings';
import { seasonShapeRoutes } from './season-shapes';
import { sensorRoutes } from './sensors';
import { spotRoutes } from './spots';
import { storageRoutes } from './storage';
import { systemRoutes } from './system';
import { tagRoutes } from './tags';
import { webhookDocs, webhookRoutes } from './webhooks';
import { workOrderRoutes } from './work-orders';
import {
  apiAuthorizer,
  changesWorker,
  eventsWorker,
  imageryBulkWorker,
  imageryDaily,
  imageryUrgentWorker,
  imageryWorker,
  sensorBulkWorker,
  webhookWorker,
} from './workers';

export const services: readonly ServiceDef[] = [
  {
    name: 'platform',
    summary:
      'shared table, bucket, queues, secrets and REST API; internal API; fields and farms, season shapes, tags, rotations, crops, farm metadata; notifications and the events worker; samplings; webhooks and their delivery worker; the change feed and its stream worker',
    routes: [
      ...systemRoutes,
      ...platformRoutes,
      ...fieldsRoutes,
      ...seasonShapeRoutes,
      ...tagRoutes,
      ...rotationRoutes,
      ...cropRoutes,
      ...farmMetadataRoutes,
      ...notificationRoutes,
      ...samplingRoutes,
      ...webhookRoutes,
      ...changeRoutes,
    ],
    workers: [eventsWorker, webhookWorker, changesWorker],
    authorizer: apiAuthorizer,
  },
  {
    name: 'records',
    summary: 'livestock, spots, sensors, extension storage, user maps',
    routes: [...livestockRoutes, ...spotRoutes, ...sensorRoutes, ...storageRoutes, ...mapRoutes],
    workers: [sensorBulkWorker],
  },
  {
    name: 'agronomy',
    summary: 'inputs, labours and work orders (their PDF and Excel documents)',
    routes: [...inputRoutes, ...labourRoutes, ...workOrderRoutes],
    workers: [],
  },
  {
    name: 'imagery',
    summary:
      'satellite imagery of fields: dates, NDVI, rendering; the layer types; the imagery worker and its daily schedule',
    routes: imageryRoutes,
    workers: [imageryUrgentWorker, imageryBulkWorker, imageryWorker, imageryDaily],
  },
];

/** Every route of every service (the catch-all of unknown routes included). */
export const allRoutes: readonly RouteDef[] = services.flatMap((service) => service.routes);

export const openApiDocument = () =>
  buildOpenApi(
    allRoutes,
    {
      title: 'Surco API',
      version: '0.1.0',
      description:
        "Open, serverless implementation of a farm-management platform's API for extensions. " +
        'Errors use the dialect of each area (see the default response of each operation).',
    },
    webhookDocs(),
  );
