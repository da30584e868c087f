#!/usr/bin/env python3
"""Writes the hand-built Arma 3 / DayZ vectors (info keywords, rules carrying the
server browser message) as annotated hex, like mkvectors.py, whose helpers it uses.

Each rules vector starts with the unescaped message, field by field, as comments;
the bytes that follow are the S2A_RULES reply: chunk keys (index, count) and the
escaped message cut into chunk values. Layouts: see ../bohemia.go.
Run: python3 mkbohemia.py (from this folder).
"""
import struct
import sys

sys.dont_write_bytecode = True  # importing mkvectors must not leave __pycache__ here

from mkvectors import HDR, h, info_src, raw, s, u16, u64, write


def b8(v):
    return bytes([v])


def le16(v):
    return struct.pack("<H", v)


def le32(v):
    return struct.pack("<I", v)


def lstr(text):
    b = text.encode("utf-8") if isinstance(text, str) else text
    return bytes([len(b)]) + b


def mod(hsh, wid, name, idlen=4, flags=0):
    return [(le32(hsh), "mod hash"), (b8(idlen | flags), "id length %d%s" % (idlen, " | 0x10 creator DLC" if flags else "")),
            (wid.to_bytes(idlen, "little"), "id %d" % wid), (lstr(name), "name %r" % name)]


def escape(b):
    out = b""
    for x in b:
        out += {0x01: b"\x01\x01", 0x00: b"\x01\x02", 0xFF: b"\x01\x03"}.get(x, bytes([x]))
    return out


def message(fields):
    return b"".join(f for f, _ in fields)


def rules_reply(name, title, fields, *, cuts=None, keys=None, escaped=None, text=(), count=None):
    """fields: the message; cuts: offsets in the escaped message where chunks end;
    keys: the (index, count) of each chunk in wire order (default 1..n in order)."""
    esc = escaped if escaped is not None else escape(message(fields))
    bounds = [0] + list(cuts or []) + [len(esc)]
    chunks = [esc[a:b] for a, b in zip(bounds, bounds[1:])]
    if keys is None:
        keys = [(i + 1, len(chunks)) for i in range(len(chunks))]
    order = [k[0] - 1 for k in keys]
    segs = [("", "message, unescaped (%d bytes; %d escaped):" % (len(message(fields)), len(esc)))]
    for f, what in fields:
        segs.append(("", "  %-30s %s" % (h(f)[:30], what)))
    n = count if count is not None else len(keys) + len(text)
    segs += HDR + [("45", "type S2A_RULES"), u16(n, "rule count")]
    for (idx, total), ci in zip(keys, order):
        segs += [raw(bytes([idx, total]) + b"\x00", "key: chunk %d of %d" % (idx, total)),
                 raw(chunks[ci] if ci < len(chunks) else b"", "value: escaped message part %d" % (ci + 1)),
                 ("00", "end of value")]
    for k, v in text:
        segs += [s(k, "name"), s(v, "value")]
    return write(name, title, segs)


ARMA_MODS = [
    (b8(3), "version 3"),
    (b8(0), "general flags"),
    (le16(0x0011), "DLC flags: Karts 0x1, Apex 0x10"),
    (le16(0x0102), "difficulty"),
    (le32(0x11223344), "DLC hash (Karts)"),
    (le32(0x00FF0155), "DLC hash (Apex): 00, FF and 01 bytes, escaped"),
    (b8(4), "mod count 4 (3 mods and a creator DLC)"),
    *mod(0xFF000001, 450814997, "CBA_A3"),
    *mod(0x0A0B0C0D, 463939057, "ace"),
    *mod(0x01010101, 0, "@lokal\u00e9"),
    *mod(0xCAFEBABE, 1042220, "", idlen=3, flags=0x10),
    (b8(2), "signature count"),
    (lstr("a3"), "signature 'a3'"),
    (lstr("cba_3_18"), "signature 'cba_3_18'"),
]

DAYZ_MODS = [
    (b8(2), "version 2"),
    (b8(0), "general flags"),
    (le16(0x0001), "DLC flags: Livonia 0x1"),
    (le32(0x5A5A0001), "DLC hash (Livonia)"),
    (b8(2), "mod count"),
    *mod(0x31323334, 1564026768, "Community-Online-Tools"),
    *mod(0x00000000, 2291785308, "DayZ-Expansion-Core"),
    (b8(1), "signature count"),
    (lstr("dayz"), "signature 'dayz'"),
    (lstr("Test hive"), "description"),
]

DAYZ_TEXT = [("allowedBuild", "0"), ("dedicated", "1"), ("island", "chernarusplus"), ("language", "65545"),
             ("platform", "win"), ("requiredBuild", "0"), ("requiredVersion", "127"), ("timeLeft", "15")]


def main():
    info_src("info_arma3", "S2A_INFO_SRC from Arma 3: AppID 107410 in the GameID, keywords with an lqs tag (no queue in Arma 3)",
             sname="Arma Test", mp="Altis", folder="Arma3", game="Escape", app=107410 & 0xFFFF, players=12, maxp=40,
             bots=0, env=ord("w"), version="2.18.152405", edf=0xB1,
             extra=[u16(2302, "edf 0x80 game_port"), u64(90071992547409923, "edf 0x10 steam_id"),
                    s("bf,r218,n152405,s7,i1,mf,lf,vt,dt,ttescape,g65545,lqs5", "edf 0x20 keywords (lqs5 is no queue here)"),
                    u64(107410, "edf 0x01 game_id (app 107410)")])
    info_src("info_dayz", "S2A_INFO_SRC from DayZ: AppID 221100 in the GameID, login queue lqs12 in the keywords",
             sname="DayZ Test", mp="chernarusplus", folder="dayz", game="DayZ", app=221100 & 0xFFFF, players=60, maxp=60,
             bots=0, env=ord("w"), version="1.27.159674", edf=0xB1,
             extra=[u16(2302, "edf 0x80 game_port"), u64(90071992547409924, "edf 0x10 steam_id"),
                    s("battleye,no3rd,external,privHive,shard,lqs12,isDLC,etm4.000000,entm2.000000,18:27",
                      "edf 0x20 keywords"),
                    u64(221100, "edf 0x01 game_id (app 221100)")])

    full = escape(message(ARMA_MODS))
    rules_reply("rules_arma3_mods", "S2A_RULES from Arma 3: the server browser message in 2 chunks (3 mods, 1 creator DLC)",
                ARMA_MODS, cuts=[len(full) // 2])
    # The escaped message cut inside an escape pair (01 | 02), chunks sent last first.
    cut = full.index(b"\x01\x02", 20) + 1
    rules_reply("rules_arma3_reordered", "S2A_RULES from Arma 3: chunk 2 before chunk 1, an escape pair split between them",
                ARMA_MODS, cuts=[cut], keys=[(2, 2), (1, 2)])
    rules_reply("rules_arma3_no_mods", "S2A_RULES from Arma 3: one chunk, a message listing no mods",
                [(b8(3), "version 3"), (b8(0), "general flags"), (le16(0), "DLC flags"), (le16(0), "difficulty"),
                 (b8(0), "mod count 0"), (b8(0), "signature count 0")])
    rules_reply("rules_dayz_mods", "S2A_RULES from DayZ: message in 3 chunks (2 mods, description), then 8 textual rules",
                DAYZ_MODS, cuts=[30, 60], text=DAYZ_TEXT)

    # Malformed: each keeps the textual rules and yields no mods.
    rules_reply("rules_dayz_missing_chunk", "S2A_RULES from DayZ: chunk 2 of 3 missing (no mods, textual rules kept)",
                DAYZ_MODS, cuts=[30, 60], keys=[(1, 3), (3, 3)], text=DAYZ_TEXT)
    rules_reply("rules_arma3_duplicate_chunk", "S2A_RULES from Arma 3: chunk 1 of 2 twice, chunk 2 never",
                ARMA_MODS, cuts=[len(full) // 2], keys=[(1, 2), (1, 2)])
    rules_reply("rules_arma3_counts_disagree", "S2A_RULES from Arma 3: chunk keys 1/2 and 2/3",
                ARMA_MODS, cuts=[len(full) // 2], keys=[(1, 2), (2, 3)])
    rules_reply("rules_arma3_bad_escape", "S2A_RULES from Arma 3: escape 01 04 in the data",
                ARMA_MODS, escaped=full[:10] + b"\x01\x04" + full[10:])
    rules_reply("rules_arma3_dangling_escape", "S2A_RULES from Arma 3: the last chunk ends with a lone 01",
                ARMA_MODS, escaped=full + b"\x01", cuts=[len(full) // 2])
    lying = list(ARMA_MODS)
    lying[7 + 3] = (b8(200) + b"CBA_A3", "name length 200, 6 bytes follow (lying length)")
    rules_reply("rules_arma3_lying_length", "S2A_RULES from Arma 3: the first mod's name length says 200",
                lying, cuts=[40])
    rules_reply("rules_arma3_truncated", "S2A_RULES from Arma 3: message cut inside the third mod record",
                ARMA_MODS, escaped=full[:60], cuts=[40])
    wrongver = [(b8(9), "version 9 (unknown layout)")] + ARMA_MODS[1:]
    rules_reply("rules_arma3_unknown_version", "S2A_RULES from Arma 3: server browser version 9",
                wrongver, cuts=[40])


if __name__ == "__main__":
    main()
