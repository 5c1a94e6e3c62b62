//! The order within each layer, for few crossings: barycenter sweeps down
//! and up the layers, each followed by swaps of neighbours that cross less
//! the other way round, keeping the best order seen. The first order is the
//! graph's own (for a flow, the file's), and ties keep the current order,
//! so a picture moves little as its flow is edited.

use super::{Adjacency, Layered};

/// At most this many sweeps; fewer when this many in a row bring nothing,
/// and for large graphs, as many as [`SWEEP_BUDGET`] allows (at least two).
const MAX_SWEEPS: usize = 24;
const PATIENCE: usize = 12;
/// Vertices reordered in all sweeps together.
const SWEEP_BUDGET: usize = 1_000_000;
/// Graphs up to this many vertices are ordered twice, with each way of
/// placing the vertices that have no neighbours in the layer next to theirs,
/// and keep the better order (neither wins on every graph).
const TWO_TRIES: usize = 50_000;
/// Passes of neighbour swaps over a layer after each sweep, at most.
const SWAP_PASSES: usize = 4;

/// Where a vertex without neighbours in the layer next to its own goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loner {
    /// It keeps its place; the others are sorted around it.
    KeepsPlace,
    /// It is sorted with the others, its position for a barycenter.
    SortedByPosition,
}

/// Orders the layers; returns the crossings left.
pub fn reduce_crossings(graph: &mut Layered) -> usize {
    let first = graph.layers.clone();
    let mut best = sweeps(graph, Loner::KeepsPlace);
    if graph.layer_of.len() <= TWO_TRIES && best > 0 {
        let mut best_layers = std::mem::replace(&mut graph.layers, first);
        let other = sweeps(graph, Loner::SortedByPosition);
        if other < best {
            best = other;
        } else {
            std::mem::swap(&mut graph.layers, &mut best_layers);
        }
    }
    best
}

/// Barycenter sweeps from the graph's current order, leaving the best order
/// seen; returns its crossings.
fn sweeps(graph: &mut Layered, loner: Loner) -> usize {
    let mut pos = vec![0u32; graph.layer_of.len()];
    set_positions(&graph.layers, &mut pos);
    let mut best = count(graph, &pos);
    let mut best_layers = graph.layers.clone();
    let mut stale = 0;
    let mut keyed = Vec::new();
    let mut kept = Vec::new();
    let last = graph.layers.len().saturating_sub(1);
    let sweeps = MAX_SWEEPS.min((SWEEP_BUDGET / graph.layer_of.len().max(1)).max(2));
    for sweep in 0..sweeps {
        if best == 0 {
            break;
        }
        if sweep % 2 == 0 {
            for l in 1..=last {
                let layer = &mut graph.layers[l];
                reorder(layer, &graph.before, &mut pos, loner, &mut keyed, &mut kept);
            }
        } else {
            for l in (0..last).rev() {
                let layer = &mut graph.layers[l];
                reorder(layer, &graph.after, &mut pos, loner, &mut keyed, &mut kept);
            }
        }
        swap_neighbours(graph, &mut pos);
        let crossings = count(graph, &pos);
        if crossings < best {
            best = crossings;
            best_layers.clone_from(&graph.layers);
            stale = 0;
        } else {
            stale += 1;
            if stale == PATIENCE {
                break;
            }
        }
    }
    graph.layers = best_layers;
    best
}

/// The crossings of the graph's current order.
#[cfg(test)]
pub fn count_of(graph: &Layered) -> usize {
    let mut pos = vec![0u32; graph.layer_of.len()];
    set_positions(&graph.layers, &mut pos);
    count(graph, &pos)
}

fn set_positions(layers: &[Vec<u32>], pos: &mut [u32]) {
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
    }
}

/// Orders `layer` by the mean position of each vertex's neighbours in the
/// layer next to it.
fn reorder(
    layer: &mut [u32],
    neighbours: &Adjacency,
    pos: &mut [u32],
    loner: Loner,
    keyed: &mut Vec<(f64, u32, u32)>,
    kept: &mut Vec<(usize, u32)>,
) {
    keyed.clear();
    kept.clear();
    for (i, &v) in layer.iter().enumerate() {
        let next = neighbours.of(v);
        if next.is_empty() {
            match loner {
                Loner::KeepsPlace => kept.push((i, v)),
                Loner::SortedByPosition => keyed.push((i as f64, i as u32, v)),
            }
        } else {
            let sum: u64 = next.iter().map(|&w| u64::from(pos[w as usize])).sum();
            keyed.push((sum as f64 / next.len() as f64, i as u32, v));
        }
    }
    keyed.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut moved = keyed.iter().map(|&(_, _, v)| v);
    let mut kept = kept.iter().peekable();
    for (i, slot) in layer.iter_mut().enumerate() {
        let v = match kept.next_if(|&&(at, _)| at == i) {
            Some(&(_, v)) => v,
            None => moved.next().expect("every vertex is kept or moved"),
        };
        *slot = v;
        pos[v as usize] = i as u32;
    }
}

/// Swaps neighbours within each layer where that crosses less (Gansner et
/// al.'s "transpose"), until a pass over the layer swaps nothing.
fn swap_neighbours(graph: &mut Layered, pos: &mut [u32]) {
    // The sorted neighbour positions (before, after) of the upper and the
    // lower vertex of the pair looked at.
    let mut upper = (Vec::new(), Vec::new());
    let mut lower = (Vec::new(), Vec::new());
    let (before, after) = (&graph.before, &graph.after);
    for layer in &mut graph.layers {
        for _ in 0..SWAP_PASSES {
            let mut swapped = false;
            if let Some(&first) = layer.first() {
                sorted_positions(before.of(first), pos, &mut upper.0);
                sorted_positions(after.of(first), pos, &mut upper.1);
            }
            for i in 1..layer.len() {
                let (u, v) = (layer[i - 1], layer[i]);
                sorted_positions(before.of(v), pos, &mut lower.0);
                sorted_positions(after.of(v), pos, &mut lower.1);
                let now = pairs_above(&upper.0, &lower.0) + pairs_above(&upper.1, &lower.1);
                let then = pairs_above(&lower.0, &upper.0) + pairs_above(&lower.1, &upper.1);
                if then < now {
                    layer.swap(i - 1, i);
                    pos[u as usize] = i as u32;
                    pos[v as usize] = (i - 1) as u32;
                    swapped = true;
                    // `u` is the upper vertex of the next pair: keep its lists.
                } else {
                    std::mem::swap(&mut upper, &mut lower);
                }
            }
            if !swapped {
                break;
            }
        }
    }
}

fn sorted_positions(vertices: &[u32], pos: &[u32], out: &mut Vec<u32>) {
    out.clear();
    out.extend(vertices.iter().map(|&w| pos[w as usize]));
    out.sort_unstable();
}

/// The pairs (a of `first`, b of `second`) with a > b: the crossings of
/// two neighbouring vertices' edges when `first`'s vertex is above.
fn pairs_above(first: &[u32], second: &[u32]) -> usize {
    let mut below = 0;
    let mut total = 0;
    for &a in first {
        while below < second.len() && second[below] < a {
            below += 1;
        }
        total += below;
    }
    total
}

/// Crossings between each pair of neighbouring layers, counted as
/// inversions with a Fenwick tree (Barth, Jünger and Mutzel).
fn count(graph: &Layered, pos: &[u32]) -> usize {
    let mut total = 0;
    let mut tree: Vec<u32> = Vec::new();
    let mut ends: Vec<u32> = Vec::new();
    for pair in graph.layers.windows(2) {
        let size = pair[1].len();
        tree.clear();
        tree.resize(size + 1, 0);
        let mut seen = 0usize;
        for &u in &pair[0] {
            sorted_positions(graph.after.of(u), pos, &mut ends);
            for &end in &ends {
                // Segments seen so far that end strictly below this one cross it.
                let mut at = end as usize + 1;
                let mut not_below = 0usize;
                while at > 0 {
                    not_below += tree[at] as usize;
                    at &= at - 1;
                }
                total += seen - not_below;
                let mut at = end as usize + 1;
                while at <= size {
                    tree[at] += 1;
                    at += at & at.wrapping_neg();
                }
                seen += 1;
            }
        }
    }
    total
}
