// Crops (spec 3): GET /getcultivos (with or without /api), and POST /api/crops, which registers a
// crop of the user's own (the spec lists "crops registered manually by users" without a path).
import * as z from 'zod/mini';
import type { Crop } from '../lib/crops/catalogue';
import { generalDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';

const cropsRoute = { tags: ['crops'], auth: 'bearer', dialect: generalDialect } as const;

const WireCrop = z.object({
  crop_id: z.number().check(z.int()),
  crop_name: z.string(),
  user_crop: z.boolean(),
  varieties: z.array(z.object({ variety_id: z.number().check(z.int()), variety_name: z.string() })),
});

export const wireCrop = (crop: Crop): z.infer<typeof WireCrop> => ({
  crop_id: crop.id,
  crop_name: crop.name,
  user_crop: crop.userCrop,
  varieties: crop.varieties.map((v) => ({ variety_id: v.id, variety_name: v.name })),
});

export const listCropsRoute = defineRoute({
  ...cropsRoute,
  operationId: 'listCrops',
  handler: 'functions/crops/getcultivos.get',
  method: 'get',
  paths: ['/getcultivos', '/api/getcultivos'],
  summary: "The crops the user can choose: the platform's list and the user's own",
  responses: { 200: { description: 'list of crops', schema: z.array(WireCrop) } },
});

export const RegisterCropBody = z.object({ name: z.string() });

export const registerCropRoute = defineRoute({
  ...cropsRoute,
  operationId: 'registerCrop',
  handler: 'functions/crops/crops.post',
  touches: { table: 'write' },
  method: 'post',
  paths: ['/api/crops', '/crops'],
  summary: 'Register a crop of the user (not in the platform list)',
  request: { body: RegisterCropBody },
  responses: {
    200: { description: 'the crop', schema: z.object({ res: z.literal('ok'), code: z.literal(0), data: WireCrop }) },
  },
});

export const cropRoutes = [listCropsRoute, registerCropRoute];
