"""Independent oracles, written plainly: pairwise link comparison and breadth-first groups."""

from __future__ import annotations

import json
import sqlite3
from collections import deque
from pathlib import Path


def one_substitution(a: str, b: str) -> bool:
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def one_deletion(longer: str, shorter: str) -> bool:
    return len(longer) == len(shorter) + 1 and any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


def links(words: list[str]) -> set[tuple[str, str, str]]:
    """(a, b, kind) with a < b alphabetically, comparing every pair."""
    found = set()
    for i, a in enumerate(words):
        for b in words[i + 1 :]:
            lo, hi = min(a, b), max(a, b)
            if one_substitution(a, b):
                found.add((lo, hi, "sub"))
            elif one_deletion(a, b) or one_deletion(b, a):
                found.add((lo, hi, "indel"))
    return found


def groups(words: list[str], edges: set[tuple[str, str, str]], members: set[str], kinds: set[str]) -> dict[str, int]:
    """Group number of each member word: BFS from each unvisited word in alphabetical order."""
    adjacent: dict[str, list[str]] = {w: [] for w in members}
    for a, b, kind in edges:
        if kind in kinds and a in members and b in members:
            adjacent[a].append(b)
            adjacent[b].append(a)
    group: dict[str, int] = {}
    for start in sorted(members):
        if start in group:
            continue
        number = len(set(group.values()))
        group[start] = number
        queue = deque([start])
        while queue:
            for nxt in adjacent[queue.popleft()]:
                if nxt not in group:
                    group[nxt] = number
                    queue.append(nxt)
    return group


def distances(adjacent: dict[str, set[str]], start: str) -> dict[str, int]:
    """Breadth-first distances from start."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for u in adjacent[v]:
            if u not in dist:
                dist[u] = dist[v] + 1
                queue.append(u)
    return dist


def least_cost(adjacent: dict[str, set[str]], weight: dict[str, int], start: str) -> dict[str, tuple[int, int]]:
    """(sum of weights over a path's words, steps), least first, by relaxing every edge until nothing changes."""
    best = {start: (weight[start], 0)}
    changed = True
    while changed:
        changed = False
        for v, (cost, steps) in list(best.items()):
            for u in adjacent[v]:
                candidate = (cost + weight[u], steps + 1)
                if u not in best or candidate < best[u]:
                    best[u] = candidate
                    changed = True
    return best


def dijkstra(adjacent: dict[str, set[str]], weight: dict[str, int], start: str) -> dict[str, tuple[int, int]]:
    """Least (sum of weights, steps) from start: Dijkstra, plainly, for graphs too big to relax by rounds."""
    import heapq

    best = {start: (weight[start], 0)}
    heap = [(weight[start], 0, start)]
    while heap:
        cost, steps, v = heapq.heappop(heap)
        if (cost, steps) > best[v]:
            continue
        for u in adjacent[v]:
            candidate = (cost + weight[u], steps + 1)
            if u not in best or candidate < best[u]:
                best[u] = candidate
                heapq.heappush(heap, (*candidate, u))
    return best


def count_shortest(adjacent: dict[str, set[str]], start: str, end: str) -> int:
    """How many shortest paths lead from start to end: BFS layers, each word's count the sum of its
    parents' counts."""
    dist, ways = {start: 0}, {start: 1}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for u in adjacent[v]:
            if u not in dist:
                dist[u], ways[u] = dist[v] + 1, 0
                queue.append(u)
            if dist[u] == dist[v] + 1:
                ways[u] += ways[v]
    return ways.get(end, 0)


def least_rare_shortest(adjacent: dict, weight: dict, start, end) -> tuple[int, int, int]:
    """(steps, least weight sum, how many ladders reach both) over the fewest-step ladders: BFS distances
    from both ends give the shortest-path layers (d_start + d_end = D); a dynamic programme over those
    layers, in order, keeps each word's least sum from start and how many paths reach it."""
    from_start, from_end = distances(adjacent, start), distances(adjacent, end)
    steps = from_start[end]
    layers = [[v for v in from_start if from_start[v] == i and from_end.get(v) == steps - i] for i in range(steps + 1)]
    best, ways = {start: weight[start]}, {start: 1}
    for before, layer in zip(layers, layers[1:]):
        for u in layer:
            sums = [best[v] + weight[u] for v in before if u in adjacent[v]]
            best[u] = min(sums)
            ways[u] = sum(ways[v] for v in before if u in adjacent[v] and best[v] + weight[u] == best[u])
    return steps, best[end], ways[end]


def least_triple(adjacent: dict, cost: dict, weight: dict, start) -> dict:
    """Least (cost sum, steps, weight sum) of the paths from start to every word, by relaxing every edge
    until nothing changes (the common-word ladder's order)."""
    best = {start: (cost[start], 0, weight[start])}
    changed = True
    while changed:
        changed = False
        for v, (c, steps, w) in list(best.items()):
            for u in adjacent[v]:
                candidate = (c + cost[u], steps + 1, w + weight[u])
                if u not in best or candidate < best[u]:
                    best[u] = candidate
                    changed = True
    return best


def dijkstra_triple(adjacent: dict, cost: dict, weight: dict, start) -> dict:
    """least_triple by Dijkstra, plainly, for graphs too big to relax by rounds (every cost >= 1)."""
    import heapq

    best = {start: (cost[start], 0, weight[start])}
    heap = [(*best[start], start)]
    while heap:
        c, steps, w, v = heapq.heappop(heap)
        if (c, steps, w) > best[v]:
            continue
        for u in adjacent[v]:
            candidate = (c + cost[u], steps + 1, w + weight[u])
            if u not in best or candidate < best[u]:
                best[u] = candidate
                heapq.heappush(heap, (*candidate, u))
    return best


def sql_shortest(path: Path, a: str, b: str) -> int:
    """Steps of the shortest ladder, through SQL alone: one query loads the group, then a plain BFS."""
    con = sqlite3.connect(path)
    (group,) = con.execute("SELECT group_csw FROM words WHERE word = ?", (a,)).fetchone()
    rows = con.execute("SELECT id, word, links FROM words WHERE group_csw = ?", (group,)).fetchall()
    word = {i: w for i, w, _ in rows}
    adjacent = {w: {word[j] for j in json.loads(links)} for _, w, links in rows}
    return distances(adjacent, a)[b]


def domain_members_by_hand(data_noun: bytes, *all_data: bytes) -> set[str]:
    """An independent reading of WordNet's own domain lists: the lower-case single words of every
    synset with a `;u` pointer to the ethnic slur, obscenity/vulgarism or disparagement synsets."""
    domains = set()
    for line in data_noun.decode().splitlines():
        if line[:1].isdigit() and (
            " ethnic_slur " in line[:60]
            or " vulgarism " in line[:80]
            or " profanity " in line[:60]
            or " disparagement " in line[:60]
        ):
            domains.add(line[:8])
    found = set()
    for data in all_data:
        for line in data.decode().splitlines():
            if not line[:1].isdigit():
                continue
            fields = line.split(" | ")[0].split()
            count = int(fields[3], 16)
            written = [w.split("(")[0] for w in fields[4 : 4 + 2 * count : 2]]
            pointers = fields[5 + 2 * count :]
            if any(pointers[i] == ";u" and pointers[i + 1] in domains for i in range(0, len(pointers) - 1, 4)):
                found |= {w for w in written if w.isalpha() and w.islower()}
    return found


def oracle(members: set[str], edges: set[tuple[str, str, str]], kinds: set[str]):
    """Per word its eccentricity, per group (as a frozenset) its diameter and first diametral pair:
    BFS from every word."""
    adjacent: dict[str, set[str]] = {w: set() for w in members}
    for a, b, kind in edges:
        if kind in kinds and a in members and b in members:
            adjacent[a].add(b)
            adjacent[b].add(a)
    far = {w: distances(adjacent, w) for w in members}
    ecc = {w: max(d.values()) for w, d in far.items()}
    groups = {}
    for w in members:
        group = frozenset(far[w])
        if len(group) >= 2 and group not in groups:
            diameter = max(ecc[v] for v in group)
            pair = min((a, b) for a in group for b in group if a < b and far[a][b] == diameter)
            groups[group] = (diameter, pair)
    return ecc, groups
