import { describe, expect, it } from 'vitest'
import { avcCodec, codecsString, masterPlaylist, mediaPlaylist, planSegments, subtitlePlaylist } from '../../src/services/hls/playlists.js'

describe('segment plan: every 2 s boundary of the whole duration', () => {
  it.each([
    // [duration, fps, count, last]
    [10, 30, 5, 2],
    [10.01, 30, 5, 2], // the last frame starts at 9.977: no sixth segment
    [10.1, 30, 6, 0.1],
    [5, 24, 3, 1],
    [1, 30, 1, 1],
    [7200, 23.976, 3600, 2],
    [9, undefined, 5, 1],
  ] as const)('%s s at %s fps gives %i segments, the last %s s', (duration, fps, count, last) => {
    const plan = planSegments(duration, 2, fps)
    expect(plan.count).toBe(count)
    expect(plan.lastSeconds).toBeCloseTo(last, 3)
  })
})

describe('media playlist', () => {
  it('is a VOD playlist listing every segment from the start, fMP4 with init.mp4', () => {
    expect(mediaPlaylist(planSegments(5, 2, 30))).toBe([
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MAP:URI="init.mp4"',
      '#EXTINF:2.000,', 'seg-0.m4s',
      '#EXTINF:2.000,', 'seg-1.m4s',
      '#EXTINF:1.000,', 'seg-2.m4s',
      '#EXT-X-ENDLIST',
      '',
    ].join('\n'))
  })

  it('a two-hour film lists all 3600 segments at once', () => {
    const playlist = mediaPlaylist(planSegments(7200, 2, 24))
    expect(playlist.match(/^seg-\d+\.m4s$/gm)).toHaveLength(3600)
    expect(playlist).toContain('seg-3599.m4s\n#EXT-X-ENDLIST')
  })
})

describe('master playlist', () => {
  it('has one variant with BANDWIDTH, RESOLUTION and CODECS', () => {
    expect(masterPlaylist({ bandwidth: 3_660_000, width: 1280, height: 720, codecs: 'avc1.640028,mp4a.40.2', frameRate: 30, subtitles: [] })).toBe([
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=3660000,RESOLUTION=1280x720,CODECS="avc1.640028,mp4a.40.2",FRAME-RATE=30.000',
      'index.m3u8',
      '',
    ].join('\n'))
  })

  it('lists a subtitle rendition per text track and points the variant at the group', () => {
    const playlist = masterPlaylist({
      bandwidth: 1_000_000, width: 640, height: 360, codecs: 'avc1.64001e',
      subtitles: [{ index: 0, name: 'English "SDH"', language: 'eng', default: false }, { index: 2, name: 'Track 3', language: undefined, default: false }],
    })
    expect(playlist).toContain('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English \'SDH\'",LANGUAGE="eng",DEFAULT=NO,AUTOSELECT=YES,URI="sub-0.m3u8"')
    expect(playlist).toContain('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Track 3",DEFAULT=NO,AUTOSELECT=YES,URI="sub-2.m3u8"')
    expect(playlist).toContain(',SUBTITLES="subs"\nindex.m3u8')
  })

  it('a subtitle playlist is one WebVTT file over the whole duration', () => {
    expect(subtitlePlaylist(1, 95.5)).toBe('#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:96\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:95.500,\nsub-1.vtt\n#EXT-X-ENDLIST\n')
  })
})

describe('CODECS from the level hint', () => {
  it.each([
    ['3.1', 'avc1.64001f'],
    ['4.0', 'avc1.640028'],
    ['4.1', 'avc1.640029'],
    ['5.0', 'avc1.640032'],
    ['5.1', 'avc1.640033'],
    [undefined, 'avc1.640033'],
  ] as const)('level %s is %s', (level, codec) => {
    expect(avcCodec(level)).toBe(codec)
  })

  it('adds AAC-LC when there is audio', () => {
    expect(codecsString('4.0', true)).toBe('avc1.640028,mp4a.40.2')
    expect(codecsString('4.0', false)).toBe('avc1.640028')
  })
})
