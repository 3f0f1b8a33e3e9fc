// Whether a file's page-cache misses are a local disk read. Local-file reads run on the event loop
// while they hit the page cache (local-file-source.ts), and a miss is told by getrusage's block
// input count, which only block devices raise: a network or FUSE file system (a NAS library over
// NFS or SMB, rclone, sshfs) would block the loop for a network round trip unseen, so its files
// are always read in the thread pool. Linux only (the f_type numbers are Linux's); elsewhere: no.
import { statfs } from 'node:fs/promises'

// linux/magic.h and the file systems' own headers.
const remoteTypes = new Set([
  0x6969, // NFS
  0x517b, // SMB
  0xff534d42, // CIFS
  0xfe534d42, // SMB2
  0x65735546, // FUSE
  0x00c36400, // Ceph
  0x01021997, // 9p (v9fs)
  0x5346414f, // AFS
  0x6b414653, // kAFS
  0x73757245, // Coda
  0x01161970, // GFS2
  0x7461636f, // OCFS2
  0x0bd00bd0, // Lustre
  0x47504653, // GPFS
  0x013111a8, // IBRIX
  0x564c, // NCP
])

/** Never throws: an unknown file system is treated as remote. */
export async function onLocalDisk(path: string): Promise<boolean> {
  if (process.platform !== 'linux') return false
  try {
    const { type } = await statfs(path)
    // f_type is unsigned; node may hand a magic with the high bit set back as a negative number.
    return !remoteTypes.has(type >>> 0)
  } catch {
    return false
  }
}
