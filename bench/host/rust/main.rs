// SPDX-License-Identifier: MIT
// ExtError::parse() per parse, like parse_bench.c's time mode.
// usage: rustbench ROUNDS ITERS FILE...
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args[1].parse().unwrap();
    let iters: usize = args[2].parse().unwrap();
    for path in &args[3..] {
        let data = std::fs::read(path).unwrap();
        exterr::ExtError::parse(&data).expect("fixture must parse");
        for _ in 0..iters / 10 + 1 {
            std::hint::black_box(exterr::ExtError::parse(std::hint::black_box(&data)).ok());
        }
        let mut t: Vec<f64> = (0..rounds)
            .map(|_| {
                let t0 = Instant::now();
                for _ in 0..iters {
                    std::hint::black_box(exterr::ExtError::parse(std::hint::black_box(&data)).ok());
                }
                t0.elapsed().as_nanos() as f64 / iters as f64
            })
            .collect();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let name = std::path::Path::new(path).parent().unwrap().file_name().unwrap().to_string_lossy();
        println!("rust exterr {} min={:.1} median={:.1}", name, t[0], t[rounds / 2]);
    }
}
