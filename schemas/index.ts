// Every documented route, in the order the OpenAPI document lists tags.
import type { RouteDef } from '../lib/http/route';
import { buildOpenApi } from '../lib/http/openapi';
import { internalRoutes } from './internal';
import { fieldsRoutes } from './fields';
import { systemRoutes } from './system';
import { seasonShapeRoutes } from './season-shapes';
import { tagRoutes } from './tags';
import { rotationRoutes } from './rotations';
import { cropRoutes } from './crops';
import { farmMetadataRoutes } from './farm-metadata';
import { livestockRoutes } from './livestock';
import { spotRoutes } from './spots';
import { sensorRoutes } from './sensors';
import { storageRoutes } from './storage';
import { notificationRoutes } from './notifications';

export const allRoutes: readonly RouteDef[] = [
  ...systemRoutes,
  ...internalRoutes,
  ...fieldsRoutes,
  ...seasonShapeRoutes,
  ...tagRoutes,
  ...rotationRoutes,
  ...cropRoutes,
  ...farmMetadataRoutes,
  ...livestockRoutes,
  ...spotRoutes,
  ...sensorRoutes,
  ...storageRoutes,
  ...notificationRoutes,
];

export const openApiDocument = () =>
  buildOpenApi(allRoutes, {
    title: 'Surco API',
    version: '0.1.0',
    description:
      "Open, serverless implementation of a farm-management platform's API for extensions. " +
      'Errors use the dialect of each area (see the default response of each operation).',
  });
