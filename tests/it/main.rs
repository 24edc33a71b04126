//! Every integration test in one binary: one link instead of one per file keeps a clean CI build
//! short on 2 cores (`search_alloc` stays apart: it installs its own counting allocator).

mod bench_positions;
mod cli;
mod conformance;
mod deal_uniformity;
mod inference;
mod information_sets;
mod match_harness;
mod mo_ismcts;
mod nast;
mod parsers;
mod pentago;
mod playout_policies;
mod prior;
mod process;
mod protocol;
mod protocol_doc;
mod replay_merge;
mod search;
mod tournament;
mod turn_agents;
