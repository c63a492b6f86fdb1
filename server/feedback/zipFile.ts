// A ZIP archive of a few small files, for feedback/save, written by yazl (deflated entries, UTF-8 names).
import { ZipFile } from 'yazl';

export function zipFiles(files: { name: string; data: Buffer }[], at = new Date()): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of files) zip.addBuffer(file.data, file.name, { mtime: at, mode: 0o100600 });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
