// The platform's crop catalogue (spec 3, crops): ids and names as the platform shows them, with
// common varieties. Variety ids are crop_id * 100 + n. Users add their own crops (ids from 10001).

interface CatalogueEntry {
  id: number;
  name: string;
  varieties: string[];
}

const ENTRIES: CatalogueEntry[] = [
  {
    id: 1,
    name: 'Soja',
    varieties: ['DM 4612', 'DM 46i20 IPRO STS', 'NS 4611 STS', 'DM 53i54 IPRO', 'ACA 4949 IPRO', 'Neo 50S22 IPRO'],
  },
  {
    id: 2,
    name: 'Maíz',
    varieties: ['DK 72-10', 'DK 70-20 VT3P', 'AX 7761 VT3P', 'NK 842 Viptera3', 'ACA 473 VT3P', 'P1815 VYHR'],
  },
  {
    id: 3,
    name: 'Trigo',
    varieties: ['Baguette 620', 'Klein Proteo', 'DM Algarrobo', 'ACA 602', 'Buck SY 330', 'Klein Valor'],
  },
  { id: 4, name: 'Girasol', varieties: ['Paraíso 1000 CL', 'SY 4066', 'ACA 869', 'NTO 4.0', 'Syn 3970 CL'] },
  { id: 5, name: 'Cebada', varieties: ['Andreia', 'Overture', 'Montoya', 'Scarlett'] },
  { id: 6, name: 'Sorgo', varieties: ['ACA 558', 'VDH 422', 'DK 61T', 'Pampa Verde'] },
  { id: 7, name: 'Algodón', varieties: ['DP 1238 BG RR', 'Guazuncho 4 INTA', 'NuOpal RR'] },
  { id: 8, name: 'Arroz', varieties: ['IRGA 424', 'Gurí INTA CL', 'Puitá INTA CL'] },
  { id: 9, name: 'Maní', varieties: ['Granoleico', 'ASEM 400 INTA', 'Utre UNRC'] },
  { id: 10, name: 'Avena', varieties: ['Bonaerense Payé', 'Cristal INTA', 'Elizabet INTA'] },
  { id: 11, name: 'Colza', varieties: ['Nuvette 2286', 'Hyola 830 CC', 'Diamond'] },
  { id: 12, name: 'Papa', varieties: ['Spunta', 'Innovator', 'Atlantic'] },
  { id: 13, name: 'Caña de azúcar', varieties: ['LCP 85-384', 'TUC 95-10', 'CP 65-357'] },
  { id: 14, name: 'Poroto', varieties: ['Alubia Cerrillos', 'Leales 22 INTA', 'Negro TUC 500'] },
  { id: 15, name: 'Centeno', varieties: ['Quehué INTA', 'Emilio INTA'] },
  { id: 16, name: 'Alfalfa', varieties: ['Monarca SP INTA', 'Bacana', 'WL 1058'] },
  { id: 17, name: 'Garbanzo', varieties: ['Norteño', 'Kiara UNC-INTA'] },
  { id: 18, name: 'Arveja', varieties: ['Viper', 'Facon'] },
  { id: 19, name: 'Lenteja', varieties: ['Silvina INTA', 'Anita INTA'] },
  { id: 20, name: 'Triticale', varieties: ['Tizné UNRC', 'Genú UNRC'] },
  { id: 21, name: 'Vid', varieties: ['Malbec', 'Cabernet Sauvignon', 'Bonarda', 'Torrontés'] },
  { id: 22, name: 'Olivo', varieties: ['Arbequina', 'Picual', 'Hojiblanca'] },
  { id: 23, name: 'Naranjo', varieties: ['Valencia Late', 'Salustiana', 'Navelina'] },
  { id: 24, name: 'Tomate', varieties: ['Elpida', 'Santa Lucía', 'Platense'] },
  { id: 25, name: 'Mijo', varieties: ['Colorado INTA', 'Cope INTA'] },
  { id: 26, name: 'Almendro', varieties: ['Guara', 'Lauranne', 'Marcona'] },
  { id: 27, name: 'Cártamo', varieties: ['CW 88 OL', 'Montola 2000'] },
  { id: 28, name: 'Lino', varieties: ['Ceibo INTA', 'Panambí INTA'] },
  { id: 29, name: 'Chía', varieties: ['Oruro', 'Sahi Alteña'] },
  { id: 30, name: 'Cebolla', varieties: ['Valcatorce INTA', 'Grano de Oro'] },
  { id: 31, name: 'Pastura natural', varieties: [] },
  { id: 32, name: 'Barbecho', varieties: [] },
];

export interface Variety {
  id: number;
  name: string;
}

export interface Crop {
  id: number;
  name: string;
  varieties: Variety[];
  /** Registered by a user rather than part of the platform's list. */
  userCrop: boolean;
}

export const USER_CROP_ID_OFFSET = 10_000;

export const PLATFORM_CROPS: readonly Crop[] = ENTRIES.map((entry) => ({
  id: entry.id,
  name: entry.name,
  userCrop: false,
  varieties: entry.varieties.map((name, index) => ({ id: entry.id * 100 + index + 1, name })),
}));

const byId = new Map(PLATFORM_CROPS.map((crop) => [crop.id, crop]));
export const platformCrop = (id: number): Crop | undefined => byId.get(id);
