#!/usr/bin/env python3
"""Writes the hand-built A2S test vectors in this folder as annotated hex (.hex).

Every vector is built field by field from shared/protocols/a2s.md; the comments in
each .hex file name the fields. Format read by the tests: '#' starts a comment,
"text" is literal bytes, anything else is hex byte pairs. Python is used only
because Go's standard library cannot compress bzip2 (split_bzip2* vectors).
Run: python3 mkvectors.py (from this folder).
"""
import bz2
import struct
import zlib

HDR = [("ffffffff", "header -1")]


def h(b):
    return b.hex(" ")


def s(text, what):
    """A NUL-terminated string field."""
    b = text.encode("utf-8") if isinstance(text, str) else text
    printable = all(0x20 <= c < 0x7F and c != 0x22 for c in b)
    if printable and b:
        return ('"%s" 00' % b.decode(), what)
    return ((h(b) + " 00").strip(), what)


def u8(v, what):
    return ("%02x" % (v & 0xFF), what)


def u16(v, what):
    return (h(struct.pack("<H", v)), what)


def i32(v, what):
    return (h(struct.pack("<i", v)), what)


def u32(v, what):
    return (h(struct.pack("<I", v)), what)


def u64(v, what):
    return (h(struct.pack("<Q", v)), what)


def f32(v, what):
    return (h(struct.pack("<f", v)), what)


def raw(b, what):
    return (h(b), what)


def to_bytes(segs):
    out = b""
    for tok, _ in segs:
        rest = tok
        while rest:
            rest = rest.strip()
            if not rest:
                break
            if rest[0] == '"':
                end = rest.index('"', 1)
                out += rest[1:end].encode()
                rest = rest[end + 1:]
            else:
                word, _, rest = rest.partition(" ")
                out += bytes.fromhex(word)
    return out


def write(name, title, segs):
    with open(name + ".hex", "w") as f:
        f.write("# %s\n" % title)
        for tok, what in segs:
            if '"' not in tok and len(tok) > 96:
                b = bytes.fromhex(tok.replace(" ", ""))
                for i in range(0, len(b), 32):
                    f.write("%-40s # %s\n" % (h(b[i:i + 32]), what if i == 0 else "..."))
                continue
            f.write("%-40s # %s\n" % (tok, what))
    return to_bytes(segs)


def info_src(name, title, *, protocol=17, sname="Test Server", mp="de_dust2", folder="csgo",
             game="Counter-Strike", app=730, players=10, maxp=24, bots=2, stype=ord("d"),
             env=ord("l"), vis=0, vac=1, ship=None, version="1.0.0.1", edf=None, extra=(), cut=None):
    segs = HDR + [("49", "type S2A_INFO_SRC"), u8(protocol, "protocol"), s(sname, "name"), s(mp, "map"),
                  s(folder, "folder"), s(game, "game"), u16(app, "app_id"), u8(players, "players (bots included)"),
                  u8(maxp, "max_players"), u8(bots, "bots"), u8(stype, "server_type"), u8(env, "environment"),
                  u8(vis, "visibility"), u8(vac, "vac")]
    if ship:
        segs += [u8(ship[0], "the_ship mode"), u8(ship[1], "the_ship witnesses"), u8(ship[2], "the_ship duration")]
    segs.append(s(version, "version"))
    if edf is not None:
        segs.append(u8(edf, "edf"))
    segs += list(extra)
    b = to_bytes(segs)
    if cut is not None:
        # Re-emit as raw bytes cut at the given length.
        segs = [raw(b[:cut], "the reply above, cut after %d bytes" % cut)]
    return write(name, title, segs)


def main():
    all_extra = [u16(27016, "edf 0x80 game_port"), u64(90071992547409921, "edf 0x10 steam_id"),
                 u16(27020, "edf 0x40 spectator_port"), s("SourceTV", "edf 0x40 spectator_name"),
                 s(" alltalk,increased_maxplayers,payload", "edf 0x20 keywords (leading space)"),
                 u64(440, "edf 0x01 game_id")]
    info_src("info_edf_all", "S2A_INFO_SRC with every EDF field (0xF1), wire order port, steamid, stv, keywords, gameid",
             sname=" Spaced Name", mp="pl_badwater", folder="tf", game="Team Fortress", app=440,
             players=20, maxp=32, bots=3, edf=0xF1, extra=all_extra, version="8835751")
    info_src("info_no_edf", "S2A_INFO_SRC ending right after version (no EDF byte), listen server, password",
             protocol=7, stype=ord("l"), env=ord("w"), vis=1, vac=0, players=0, bots=0)
    info_src("info_theship", "S2A_INFO_SRC from The Ship (app 2400): mode, witnesses, duration before version",
             protocol=7, folder="ship", game="The Ship", app=2400, players=5, maxp=16, bots=4,
             env=ord("w"), ship=(3, 2, 5), version="1.0.0.4")
    info_src("info_edf_cut", "S2A_INFO_SRC whose EDF says port+steamid+keywords+gameid but ends inside the steam id",
             edf=0xB1, extra=[u16(27015, "edf 0x80 game_port"), raw(b"\x01\x02\x03", "edf 0x10 steam_id, only 3 of 8 bytes")])
    info_src("info_edf_undefined", "S2A_INFO_SRC with an undefined EDF bit (0x02) beside a known one: the known field is read, the rest is trailing",
             edf=0x82, extra=[u16(27015, "edf 0x80 game_port"), raw(b"\xaa\xbb", "unknown data")])
    info_src("info_edf_unknown_rust", "S2A_INFO_SRC from Rust with undefined EDF bits (0x0E) beside port, keywords and GameID: the counts in the keywords still count",
             sname="Rust Test", mp="Procedural Map", folder="rust", game="Rust", app=0, players=255, maxp=255,
             bots=0, env=ord("w"), version="2500", edf=0xAF,
             extra=[u16(28015, "edf 0x80 game_port"), s("mp300,cp280,qp7,v2500", "edf 0x20 keywords: mp<max>,cp<current>,qp<queued>"),
                    u64(252490, "edf 0x01 game_id (app 252490)")])
    info_src("info_edf_unknown_dayz", "S2A_INFO_SRC from DayZ with an undefined EDF bit (0x04) beside keywords and GameID: the login queue still counts",
             sname="DayZ Test", mp="chernarusplus", folder="dayz", game="DayZ", app=0, players=60, maxp=60,
             bots=0, env=ord("w"), version="1.26", edf=0x25,
             extra=[s("battleye,no3rd,lqs12,etm4.000000", "edf 0x20 keywords: lqs<queued>"),
                    u64(221100, "edf 0x01 game_id (app 221100)")])
    info_src("info_rust", "S2A_INFO_SRC from Rust: app_id 0, real AppID in the GameID, real counts in keywords",
             sname="Rust Test", mp="Procedural Map", folder="rust", game="Rust", app=0, players=255, maxp=255,
             bots=0, stype=ord("d"), env=ord("w"), version="2500", edf=0xB1,
             extra=[u16(28015, "edf 0x80 game_port"), u64(90071992547409922, "edf 0x10 steam_id"),
                    s("mp300,cp280,qp7,modded,v2500,born1700000000", "edf 0x20 keywords: mp<max>,cp<current>,qp<queued>"),
                    u64(252490, "edf 0x01 game_id (app 252490)")])
    info_src("info_trailing", "S2A_INFO_SRC with EDF 0x80 and 3 trailing bytes after a complete parse",
             edf=0x80, extra=[u16(27015, "edf 0x80 game_port"), raw(b"\x00\x01\x02", "trailing bytes")])
    info_src("info_odd_bytes", "S2A_INFO_SRC with protocol 252, server_type byte 0 and a Latin-1 (not UTF-8) name",
             protocol=252, sname=b"Caf\xe9 \xdcber", stype=0, env=ord("m"), app=1002, players=1, maxp=4, bots=0)
    info_src("info_cut_in_name", "S2A_INFO_SRC cut inside the name: required field missing (ErrTruncated)", cut=12)
    info_src("info_cut_before_version", "S2A_INFO_SRC cut after vac: version missing (ErrTruncated)", cut=51)
    write("info_bad_header", "Not an A2S reply: header FE FF FF FF on a complete message (ErrMalformed)",
          [("fffffffe", "header (wrong: split marker)"), ("49", "type"), ("11", "protocol")])
    write("info_wrong_type", "A complete message of type 0x44 given to the info decoder (ErrMalformed)",
          HDR + [("44", "type S2A_PLAYER"), ("00", "count 0")])
    write("info_short", "Four bytes: shorter than the 5-byte header (ErrTruncated)", HDR)

    def detailed(name, title, *, addr="192.168.0.10:27015", sname="Old Server", mp="crossfire",
                 folder="valve", game="Half-Life", players=6, maxp=16, protocol=47, stype="d", env="l",
                 vis=0, mod=None, tail=(), cut=None):
        segs = HDR + [("6d", "type S2A_INFO_DETAILED (GoldSrc)"), s(addr, "address"), s(sname, "name"),
                      s(mp, "map"), s(folder, "folder"), s(game, "game"), u8(players, "players"),
                      u8(maxp, "max_players"), u8(protocol, "protocol"), u8(ord(stype), "server_type"),
                      u8(ord(env), "environment"), u8(vis, "visibility"), u8(1 if mod else 0, "mod")]
        if mod:
            segs += [s(mod[0], "mod link"), s(mod[1], "mod download_link"), s("", "mod reserved string"),
                     i32(mod[2], "mod version"), i32(mod[3], "mod size"), u8(mod[4], "mod type"), u8(mod[5], "mod dll")]
        segs += list(tail)
        if cut is not None:
            segs = [raw(to_bytes(segs)[:cut], "the reply, cut after %d bytes" % cut)]
        return write(name, title, segs)

    detailed("info_m_mod", "S2A_INFO_DETAILED with the mod block, vac and bots",
             folder="svencoop", game="Sven Co-op", vis=1, mod=("http://example.org/", "http://example.org/dl", 5, 123456, 1, 1),
             tail=[u8(1, "vac"), u8(2, "bots")])
    detailed("info_m_upper", "S2A_INFO_DETAILED with upper-case 'D'/'W' type bytes as Valve's table shows, no mod",
             stype="D", env="W", protocol=48, tail=[u8(0, "vac"), u8(0, "bots")])
    detailed("info_m_no_bots", "S2A_INFO_DETAILED that ends after vac (HLTV style)",
             stype="p", env="w", game="HLTV", players=3, maxp=10, tail=[u8(0, "vac")])
    detailed("info_m_hltv_longs", "S2A_INFO_DETAILED from a big HLTV relay: two longs (spectators, slots) after vac",
             stype="p", env="l", game="HLTV", players=255, maxp=255,
             tail=[u8(0, "vac"), i32(300, "hltv spectators"), i32(512, "hltv slots")])
    detailed("info_m_cut_in_mod", "S2A_INFO_DETAILED cut inside the mod block (ErrTruncated)",
             mod=("a", "b", 1, 2, 0, 0), cut=79)

    def players(name, title, count, recs, tail=(), ship=()):
        segs = HDR + [("44", "type S2A_PLAYER"), u8(count, "count claimed")]
        for i, (idx, pname, score, dur) in enumerate(recs):
            segs += [u8(idx, "player %d index" % i), s(pname, "player %d name" % i), i32(score, "player %d score" % i),
                     f32(dur, "player %d duration" % i)]
        for i, (deaths, money) in enumerate(ship):
            segs += [i32(deaths, "the_ship player %d deaths" % i), i32(money, "the_ship player %d money" % i)]
        segs += list(tail)
        return write(name, title, segs)

    players("player_basic", "S2A_PLAYER, 3 players: negative score, UTF-8 name, empty name",
            3, [(0, "Alice", 15, 1234.5), (0, "Bób ✓", -3, 60.25), (0, "", 0, 5.0)])
    players("player_empty", "S2A_PLAYER with zero players: FF FF FF FF 44 00", 0, [])
    players("player_count_lies", "S2A_PLAYER claiming 5 players but carrying 2 (parse to the end, report 2)",
            5, [(1, "one", 1, 10.0), (2, "two", 2, 20.0)])
    players("player_cut_record", "S2A_PLAYER whose 2nd record ends inside its name: keep the first",
            2, [(0, "whole", 7, 99.0)], tail=[u8(0, "player 1 index"), raw(b"half", "player 1 name, no NUL")])
    players("player_theship", "S2A_PLAYER from The Ship: bots with duration -1, then deaths/money pairs",
            2, [(0, "Shipmate1", 1, -1.0), (1, "Captain", 4, 300.5)], ship=[(2, 1500), (0, 9000)])
    players("player_bad_durations", "S2A_PLAYER with NaN and +Inf durations (clamped: unknown)",
            2, [(0, "nan", 0, float("nan")), (0, "inf", 0, float("inf"))])
    players("player_maxplayers_placeholder", "S2A_PLAYER as CS:GO sends it with host_players_show 1: one 'Max Players' entry",
            1, [(0, "Max Players", 32, 3600.0)])
    players("player_csgo_placeholder_among", "S2A_PLAYER from CS:GO with the 'Max Players' placeholder among two real players",
            3, [(0, "alice", 12, 600.5), (0, "Max Players", 32, 3600.0), (0, "bob", 3, 42.0)])
    write("player_no_count", "S2A_PLAYER header without the count byte (ErrTruncated)", HDR + [("44", "type S2A_PLAYER")])

    def rules(name, title, count, pairs, tail=()):
        segs = HDR + [("45", "type S2A_RULES"), u16(count, "count claimed")]
        for k, v in pairs:
            segs += [s(k, "name"), s(v, "value")]
        segs += list(tail)
        return write(name, title, segs)

    rules("rules_basic", "S2A_RULES with 3 pairs, an empty value and a non-UTF-8 value",
          3, [("mp_friendlyfire", "0"), ("sv_tags", ""), ("hostname_latin1", b"Gr\xfc\xdfe")])
    rules("rules_dangling", "S2A_RULES ending mid-pair: keep complete pairs, drop the dangling name",
          3, [("a", "1"), ("b", "2")], tail=[s("c", "dangling name, no value")])
    rules("rules_count_lies", "S2A_RULES claiming 60000 pairs but carrying 2",
          60000, [("x", "1"), ("y", "2")])
    rules("rules_trailing", "S2A_RULES with 2 bytes after the claimed pairs", 1, [("k", "v")], tail=[raw(b"\x00\x00", "trailing")])
    write("challenge", "S2C_CHALLENGE reply carrying challenge bytes 0a 0b 0c 0d", HDR + [("41", "type S2C_CHALLENGE"), ("0a0b0c0d", "challenge")])

    # --- split replies ---
    msg = to_bytes(HDR + [("45", "")] + [u16(40, "")] + sum([[s("rule_%02d" % i, ""), s("value number %d" % i, "")] for i in range(40)], []))
    assert len(msg) > 600
    with open("split_message.hex", "w") as f:
        f.write("# The S2A_RULES message (40 rules) that the split_* vectors carry\n")
        for i in range(0, len(msg), 32):
            f.write(h(msg[i:i + 32]) + "\n")

    def frag_src(name, title, id_, total, chunks, with_size=True, size=None, crc=None, extra0=()):
        total = len(chunks) if total is None else total
        for n, chunk in enumerate(chunks):
            segs = [("feffffff", "header -2 (split)"), u32(id_, "id" + (" (bit 31: compressed)" if id_ & 0x80000000 else "")),
                    u8(total, "total"), u8(n, "number")]
            if with_size:
                segs.append(u16(1248 if size is None else size, "split_size"))
            if n == 0 and crc is not None:
                segs += [u32(crc[0], "uncompressed size"), u32(crc[1], "CRC32 of the uncompressed message")]
            if n == 0:
                segs += list(extra0)
            segs.append(raw(chunk, "payload slice %d (%d bytes)" % (n, len(chunk))))
            write("%s.frag%d" % (name, n), "%s, fragment %d of %d" % (title, n, total), segs)

    def cut(b, n):
        return [b[i:i + n] for i in range(0, len(b), n)]

    frag_src("split_source", "Source split layout with split_size (12-byte header)", 0x1234, None, cut(msg, 300))
    frag_src("split_source_nosize", "Old Source split layout without split_size (10-byte header)", 0x77, None, cut(msg, 600), with_size=False)
    gs = cut(msg, 400)
    for n, chunk in enumerate(gs):
        write("split_goldsrc.frag%d" % n, "GoldSrc split layout (9-byte header), fragment %d of %d" % (n, len(gs)),
              [("feffffff", "header -2 (split)"), u32(0x1E6A, "id"), u8(n << 4 | len(gs), "packet: number<<4 | total"),
               raw(chunk, "payload slice %d" % n)])
    comp = bz2.compress(msg, 9)
    crc = zlib.crc32(msg)
    half = (len(comp) + 1) // 2
    frag_src("split_bzip2", "Compressed (bzip2) Source split with split_size", 0x80000042, None, [comp[:half], comp[half:]],
             crc=(len(msg), crc))
    frag_src("split_bzip2_nosize", "Compressed (bzip2) Source split without split_size", 0x80000043, None, [comp[:half], comp[half:]],
             with_size=False, crc=(len(msg), crc))
    frag_src("split_bzip2_badcrc", "Compressed split whose CRC32 does not match (ErrMalformed)", 0x80000044, 2,
             [comp[:half], comp[half:]], crc=(len(msg), crc ^ 1))
    frag_src("split_bzip2_badsize", "Compressed split whose declared size is one byte short (bzip2 output exceeds it)", 0x80000045, 2,
             [comp[:half], comp[half:]], crc=(len(msg) - 1, crc))
    frag_src("split_bzip2_huge", "Compressed split declaring a 16 MiB message (ErrTooLarge before decompressing)", 0x80000046, 2,
             [comp[:half], comp[half:]], crc=(16 << 20, crc))
    frag_src("split_total_zero", "Source split with total 0 (ErrMalformed)", 0x10, 0, [msg[:300]])
    frag_src("split_too_many", "Source split claiming 200 fragments (ErrTooLarge)", 0x11, 200, [msg[:300]])
    frag_src("split_number_past_total", "Source split: fragment 0 fine, then number 5 of 2 (ErrMalformed)", 0x12, 2, [msg[:300], msg[300:600]])
    # Rewrite fragment 1 of split_number_past_total with number 5.
    lines = open("split_number_past_total.frag1.hex").read().replace('01                                       # number', '05                                       # number (past total)')
    open("split_number_past_total.frag1.hex", "w").write(lines)
    frag_src("split_total_changes", "Source split: fragment 0 says total 2, fragment 1 says total 3 (ErrMalformed)", 0x13, 2, [msg[:300], msg[300:600]])
    lines = open("split_total_changes.frag1.hex").read().replace('02                                       # total', '03                                       # total (changed)')
    open("split_total_changes.frag1.hex", "w").write(lines)
    frag_src("split_not_a2s", "Source split whose reassembled payload does not start with FF FF FF FF (ErrMalformed)", 0x14, 1,
             [b"\xff\xff\xff\xff"[:0] + b"\x00" * 4 + b"\x45\x00\x00"], extra0=())


if __name__ == "__main__":
    main()
