package e2e

import (
	"bytes"
	"encoding/binary"
	"math"
)

// boxBSP returns a minimal Quake BSP (version 29) of one empty box room: no
// faces or textures, only what a server needs to spawn a level (entities,
// planes, BSP nodes for hull 0, clip nodes for hulls 1 and 2, two leaves and
// the world model). No free Quake map ships in Debian, and mvdsv will not
// answer anything before it has loaded one.
func boxBSP() []byte {
	const (
		half           = 512 // the room is [-half, half] on every axis
		contentsEmpty  = -1
		contentsSolid  = -2
		lumpEntities   = 0
		lumpPlanes     = 1
		lumpTextures   = 2
		lumpVertexes   = 3
		lumpNodes      = 5
		lumpClipnodes  = 9
		lumpLeafs      = 10
		lumpModels     = 14
		numLumps       = 15
		headerSize     = 4 + numLumps*8
		hullCount      = 3
		lastWallToRoom = -2 // node child -2 = leaf 1, the room
	)
	// The six walls as (axis, side): x >= -h, x <= h, y >= -h, ...
	walls := [6][2]int{{0, -1}, {0, 1}, {1, -1}, {1, 1}, {2, -1}, {2, 1}}
	// Point, player (-16 -16 -24, 16 16 32) and big (-32 -32 -24, 32 32 64) hulls.
	hullMins := [hullCount][3]int{{0, 0, 0}, {-16, -16, -24}, {-32, -32, -24}}
	hullMaxs := [hullCount][3]int{{0, 0, 0}, {16, 16, 32}, {32, 32, 64}}
	// A box's origin must keep this far from a wall.
	dist := func(axis, side, hull int) int {
		if side < 0 {
			return -half - hullMins[hull][axis]
		}
		return half - hullMaxs[hull][axis]
	}

	le := binary.LittleEndian
	type plane struct{ axis, dist int }
	var planes []plane
	planeIndex := func(axis, d int) int {
		for i, p := range planes {
			if p == (plane{axis, d}) {
				return i
			}
		}
		planes = append(planes, plane{axis, d})
		return len(planes) - 1
	}
	// A wall's children: the plane's normal points to +axis, so "front" is the
	// side with the larger coordinate.
	children := func(side, inside, solid int) (int, int) {
		if side < 0 {
			return inside, solid
		}
		return solid, inside
	}

	var nodes, clip bytes.Buffer
	for i, w := range walls {
		next := i + 1
		if next == len(walls) {
			next = lastWallToRoom
		}
		front, back := children(w[1], next, -1) // -1 = leaf 0, solid
		le16 := func(v int) []byte { return le.AppendUint16(nil, uint16(int16(v))) }
		nodes.Write(le.AppendUint32(nil, uint32(planeIndex(w[0], dist(w[0], w[1], 0)))))
		nodes.Write(le16(front))
		nodes.Write(le16(back))
		for _, v := range []int{-half, -half, -half, half, half, half, 0, 0} {
			nodes.Write(le16(v))
		}
	}
	heads := [hullCount]int{}
	for hull := 1; hull < hullCount; hull++ {
		heads[hull] = clip.Len() / 8
		base := heads[hull]
		for i, w := range walls {
			next := base + i + 1
			if i+1 == len(walls) {
				next = contentsEmpty
			}
			front, back := children(w[1], next, contentsSolid)
			clip.Write(le.AppendUint32(nil, uint32(planeIndex(w[0], dist(w[0], w[1], hull)))))
			clip.Write(le.AppendUint16(nil, uint16(int16(front))))
			clip.Write(le.AppendUint16(nil, uint16(int16(back))))
		}
	}
	var planeLump bytes.Buffer
	for _, p := range planes {
		var n [3]float32
		n[p.axis] = 1
		for _, f := range append(n[:], float32(p.dist)) {
			planeLump.Write(le.AppendUint32(nil, math.Float32bits(f)))
		}
		planeLump.Write(le.AppendUint32(nil, uint32(p.axis)))
	}
	leaf := func(contents int, mins, maxs int) []byte {
		b := le.AppendUint32(nil, uint32(int32(contents)))
		b = le.AppendUint32(b, math.MaxUint32) // no visibility data
		for _, v := range []int{mins, mins, mins, maxs, maxs, maxs} {
			b = le.AppendUint16(b, uint16(int16(v)))
		}
		return append(b, make([]byte, 2+2+4)...) // no marksurfaces, no ambient sounds
	}
	var model bytes.Buffer
	for _, f := range []float32{-half, -half, -half, half, half, half, 0, 0, 0} {
		model.Write(le.AppendUint32(nil, math.Float32bits(f)))
	}
	for _, v := range []int{0, heads[1], heads[2], 0, 1, 0, 0} { // head nodes, visleafs, faces
		model.Write(le.AppendUint32(nil, uint32(v)))
	}

	var lumps [numLumps][]byte
	lumps[lumpEntities] = []byte("{\n\"classname\" \"worldspawn\"\n\"message\" \"gameserver_exporter test box\"\n}\n" +
		"{\n\"classname\" \"info_player_start\"\n\"origin\" \"0 0 0\"\n}\n" +
		"{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"-128 -128 0\"\n}\n" +
		"{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"128 128 0\"\n}\n\x00")
	lumps[lumpPlanes] = planeLump.Bytes()
	lumps[lumpTextures] = make([]byte, 4) // zero textures
	lumps[lumpVertexes] = make([]byte, 12)
	lumps[lumpNodes] = nodes.Bytes()
	lumps[lumpClipnodes] = clip.Bytes()
	lumps[lumpLeafs] = append(leaf(contentsSolid, 0, 0), leaf(contentsEmpty, -half, half)...)
	lumps[lumpModels] = model.Bytes()

	out := make([]byte, headerSize)
	le.PutUint32(out, 29)
	for i, l := range lumps {
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
		le.PutUint32(out[4+i*8:], uint32(len(out)))
		le.PutUint32(out[8+i*8:], uint32(len(l)))
		out = append(out, l...)
	}
	return out
}
