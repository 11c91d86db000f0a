import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { requiredAttachmentSlots } from '@dentflow/domain';
import type { Storage } from '../../../adapters/storage/storage';
import type { DbOrTx } from '../../client';
import { attachments, caseServices, cases } from '../../schema';

/**
 * Demo files so the viewers have something to show: two smile photos and both jaw scans on each
 * demo case, and a planning guide on cases the planner has worked on. Everything is generated
 * here (a few kB each), nothing is committed as binary.
 */

type Triangle = [number, number, number][];

/** A binary STL: 80-byte header, uint32 count, then normal + 3 vertices + uint16 per triangle. */
function binaryStl(triangles: Triangle[], name: string): Buffer {
  const buffer = Buffer.alloc(84 + 50 * triangles.length);
  buffer.write(name.slice(0, 80), 0, 'latin1');
  buffer.writeUInt32LE(triangles.length, 80);
  triangles.forEach((triangle, i) => {
    const offset = 84 + 50 * i;
    const [a, b, c] = triangle;
    const u = [b![0] - a![0], b![1] - a![1], b![2] - a![2]];
    const v = [c![0] - a![0], c![1] - a![1], c![2] - a![2]];
    const n = [
      u[1]! * v[2]! - u[2]! * v[1]!,
      u[2]! * v[0]! - u[0]! * v[2]!,
      u[0]! * v[1]! - u[1]! * v[0]!,
    ];
    const length = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    n.forEach((value, k) => buffer.writeFloatLE(value / length, offset + 4 * k));
    triangle.flat().forEach((value, k) => buffer.writeFloatLE(value, offset + 12 + 4 * k));
  });
  return buffer;
}

/** The 12 triangles of a box centred at (x, y) from z0 to z1, turned by `angle` around z. */
function box(x: number, y: number, z0: number, z1: number, w: number, d: number, angle: number) {
  // Bottom below top, so every face winds outwards (viewers cull back faces).
  if (z1 < z0) [z0, z1] = [z1, z0];
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const corner = (dx: number, dy: number, z: number): [number, number, number] => [
    x + dx * cos - dy * sin,
    y + dx * sin + dy * cos,
    z,
  ];
  const p = [
    corner(-w / 2, -d / 2, z0),
    corner(w / 2, -d / 2, z0),
    corner(w / 2, d / 2, z0),
    corner(-w / 2, d / 2, z0),
    corner(-w / 2, -d / 2, z1),
    corner(w / 2, -d / 2, z1),
    corner(w / 2, d / 2, z1),
    corner(-w / 2, d / 2, z1),
  ];
  const faces = [
    [0, 2, 1, 0, 3, 2],
    [4, 5, 6, 4, 6, 7],
    [0, 1, 5, 0, 5, 4],
    [1, 2, 6, 1, 6, 5],
    [2, 3, 7, 2, 7, 6],
    [3, 0, 4, 3, 4, 7],
  ];
  return faces.flatMap((f) => [
    [p[f[0]!]!, p[f[1]!]!, p[f[2]!]!],
    [p[f[3]!]!, p[f[4]!]!, p[f[5]!]!],
  ]);
}

/**
 * A dental arch: 14 teeth (boxes) on a horseshoe with a gum base under each; `flip` mirrors the
 * teeth downwards for the lower jaw. `guide` draws a thin plate over the teeth instead.
 */
export function archStl(jaw: 'upper' | 'lower' | 'guide'): Buffer {
  const triangles: Triangle[] = [];
  const sign = jaw === 'lower' ? -1 : 1;
  for (let i = 0; i < 14; i++) {
    const t = Math.PI * (0.08 + (0.84 * i) / 13);
    const x = 25 * Math.cos(t);
    const y = 30 * Math.sin(t);
    const angle = t + Math.PI / 2;
    const molar = i < 3 || i > 10;
    const width = molar ? 9 : 6.5;
    if (jaw === 'guide') {
      triangles.push(...box(x, y, 9, 11, width + 2, 12, angle));
    } else {
      triangles.push(...box(x, y, 0, sign * 4, width + 1, 12, angle));
      triangles.push(...box(x, y, sign * 4, sign * 12, width, molar ? 10 : 7, angle));
    }
  }
  return binaryStl(triangles, `dentflow demo ${jaw}`);
}

/** A small photo-like image: a face-coloured background with a smile drawn on it. */
async function smilePhoto(variant: number): Promise<Buffer> {
  const width = 320;
  const height = 240;
  const teeth = Array.from(
    { length: 8 },
    (_, i) =>
      `<rect x="${96 + i * 16}" y="118" width="14" height="${20 - Math.abs(3.5 - i) * 2}" rx="3" fill="#fbfaf3"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${variant % 2 ? '#e7b996' : '#d9a27f'}"/>
    <path d="M80 112 Q160 ${variant % 2 ? 190 : 170} 240 112 Q160 140 80 112 Z" fill="#8c2f39"/>
    ${teeth}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

const PLANNED = ['approve', 'finishing', 'print', 'finished', 'closed'];

/** Attaches the demo files to the given cases (stored through the port, rows in `attachments`). */
export async function seedSampleAttachments(
  db: DbOrTx,
  storage: Storage,
  caseIds: readonly number[],
): Promise<number> {
  if (caseIds.length === 0) return 0;
  const rows = await db
    .select({ id: cases.id, ownerId: cases.ownerId, status: cases.caseStatus })
    .from(cases)
    .where(inArray(cases.id, [...caseIds]));
  const photos = [await smilePhoto(0), await smilePhoto(1)];
  const upper = archStl('upper');
  const lower = archStl('lower');
  const guide = archStl('guide');
  let count = 0;

  for (const row of rows) {
    const files: {
      bucketName: string;
      attachmentType: string;
      filename: string;
      body: Buffer;
      mimetype: string;
      status: string;
      userId: number;
    }[] = [
      {
        bucketName: 'photoProtocol',
        attachmentType: 'naturalSmile',
        filename: 'natural-smile.jpg',
        body: photos[0]!,
        mimetype: 'image/jpeg',
        status: 'public',
        userId: row.ownerId,
      },
      {
        bucketName: 'photoProtocol',
        attachmentType: 'forcedSmile',
        filename: 'forced-smile.jpg',
        body: photos[1]!,
        mimetype: 'image/jpeg',
        status: 'public',
        userId: row.ownerId,
      },
      {
        bucketName: 'exams',
        attachmentType: 'upperJawStl',
        filename: 'upper-jaw.stl',
        body: upper,
        mimetype: 'model/stl',
        status: 'public',
        userId: row.ownerId,
      },
      {
        bucketName: 'exams',
        attachmentType: 'lowerJawStl',
        filename: 'lower-jaw.stl',
        body: lower,
        mimetype: 'model/stl',
        status: 'public',
        userId: row.ownerId,
      },
    ];
    if (row.status === 'execute' || PLANNED.includes(row.status)) {
      const [service] = await db
        .select({ plannerId: caseServices.plannerId })
        .from(caseServices)
        .where(eq(caseServices.caseId, row.id))
        .limit(1);
      files.push({
        bucketName: 'planning',
        attachmentType: 'generic',
        filename: 'surgical-guide.stl',
        body: guide,
        mimetype: 'model/stl',
        // In execution the planner is still working; later the plan was delivered.
        status:
          row.status === 'execute' ? 'private' : row.status === 'approve' ? 'publish' : 'approved',
        userId: service?.plannerId ?? row.ownerId,
      });
    }
    const categories = await db
      .select({ categoryId: caseServices.productCategoryId })
      .from(caseServices)
      .where(eq(caseServices.caseId, row.id));
    const required = requiredAttachmentSlots(categories.map((c) => c.categoryId));
    for (const file of files) {
      const storageKey = `cases/${row.id}/${randomBytes(16).toString('hex')}`;
      await storage.put(storageKey, file.body, file.mimetype);
      await db.insert(attachments).values({
        caseId: row.id,
        userId: file.userId,
        bucketName: file.bucketName,
        attachmentType: file.attachmentType,
        required: required.some(
          (slot) =>
            slot.bucketName === file.bucketName && slot.attachmentType === file.attachmentType,
        ),
        status: file.status,
        filename: file.filename,
        filesize: file.body.length,
        mimetype: file.mimetype,
        storageKey,
        uploadedAt: new Date(),
      });
      count++;
    }
  }
  return count;
}
