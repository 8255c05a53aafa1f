;; The NNUE hot loops in WebAssembly SIMD (128-bit: eight int16 lanes at a time), for
;; simd-kernels.ts. The memory is the caller's (imported), all pointers are byte offsets into
;; it, and `bytes` is the accumulator half's length in bytes (2 x hidden, a multiple of 16).
;;
;; Bit-exact with the TypeScript loops of accumulator-stack.ts and network.ts: int16 lanes wrap
;; exactly as stores into an Int16Array truncate, and the SCReLU sum is taken in int64 (every
;; product clamp(a)^2 * w2 is formed exactly by the widening multiplies), converted to f64 once.
;;
;; Rebuilt into simd-module.ts by `node tools/wasm/build-nnue-simd.mjs`; a test checks that the
;; committed bytes are this file's.
(module
  (import "env" "mem" (memory 1))

  ;; dst = src + row(a) - row(s): the common quiet move (one feature added, one removed).
  (func (export "addSub") (param $dst i32) (param $src i32) (param $a i32) (param $s i32) (param $bytes i32)
    (local $i i32)
    (block $done
      (loop $lanes
        (br_if $done (i32.ge_u (local.get $i) (local.get $bytes)))
        (v128.store (i32.add (local.get $dst) (local.get $i))
          (i16x8.sub
            (i16x8.add
              (v128.load (i32.add (local.get $src) (local.get $i)))
              (v128.load (i32.add (local.get $a) (local.get $i))))
            (v128.load (i32.add (local.get $s) (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $lanes))))

  ;; dst = src + sum of the nAdd rows listed at `rows` - sum of the nSub rows listed after them
  ;; (each list entry an i32 byte offset of a feature row). dst may equal src.
  (func (export "update") (param $dst i32) (param $src i32) (param $rows i32) (param $nAdd i32) (param $nSub i32) (param $bytes i32)
    (local $i i32) (local $p i32) (local $addEnd i32) (local $subEnd i32) (local $v v128)
    (local.set $addEnd (i32.add (local.get $rows) (i32.shl (local.get $nAdd) (i32.const 2))))
    (local.set $subEnd (i32.add (local.get $addEnd) (i32.shl (local.get $nSub) (i32.const 2))))
    (block $done
      (loop $lanes
        (br_if $done (i32.ge_u (local.get $i) (local.get $bytes)))
        (local.set $v (v128.load (i32.add (local.get $src) (local.get $i))))
        (local.set $p (local.get $rows))
        (block $addsDone
          (loop $adds
            (br_if $addsDone (i32.ge_u (local.get $p) (local.get $addEnd)))
            (local.set $v (i16x8.add (local.get $v) (v128.load (i32.add (i32.load (local.get $p)) (local.get $i)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $adds)))
        (block $subsDone
          (loop $subs
            (br_if $subsDone (i32.ge_u (local.get $p) (local.get $subEnd)))
            (local.set $v (i16x8.sub (local.get $v) (v128.load (i32.add (i32.load (local.get $p)) (local.get $i)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $subs)))
        (v128.store (i32.add (local.get $dst) (local.get $i)) (local.get $v))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $lanes))))

  ;; sum_i clamp(x_i, 0, qa)^2 * w_i over one accumulator half x (at `x`) and its output weights
  ;; (at `w`), added to the int64 pair `acc`.
  (func $screluHalf (param $x i32) (param $w i32) (param $bytes i32) (param $qa v128) (param $acc v128) (result v128)
    (local $i i32) (local $c v128) (local $sq v128) (local $wv v128) (local $w32 v128)
    (block $done
      (loop $lanes
        (br_if $done (i32.ge_u (local.get $i) (local.get $bytes)))
        (local.set $c
          (i16x8.min_s (i16x8.max_s (v128.load (i32.add (local.get $x) (local.get $i))) (v128.const i16x8 0 0 0 0 0 0 0 0)) (local.get $qa)))
        (local.set $wv (v128.load (i32.add (local.get $w) (local.get $i))))
        ;; low four lanes
        (local.set $sq (i32x4.extmul_low_i16x8_u (local.get $c) (local.get $c)))
        (local.set $w32 (i32x4.extend_low_i16x8_s (local.get $wv)))
        (local.set $acc (i64x2.add (local.get $acc) (i64x2.extmul_low_i32x4_s (local.get $sq) (local.get $w32))))
        (local.set $acc (i64x2.add (local.get $acc) (i64x2.extmul_high_i32x4_s (local.get $sq) (local.get $w32))))
        ;; high four lanes
        (local.set $sq (i32x4.extmul_high_i16x8_u (local.get $c) (local.get $c)))
        (local.set $w32 (i32x4.extend_high_i16x8_s (local.get $wv)))
        (local.set $acc (i64x2.add (local.get $acc) (i64x2.extmul_low_i32x4_s (local.get $sq) (local.get $w32))))
        (local.set $acc (i64x2.add (local.get $acc) (i64x2.extmul_high_i32x4_s (local.get $sq) (local.get $w32))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $lanes)))
    (local.get $acc))

  ;; The SCReLU output layer's sum before its division by qa: the side to move's half `us` with the
  ;; first half of the weights `w`, the opponent's half `them` with the second.
  (func (export "screlu") (param $us i32) (param $them i32) (param $w i32) (param $bytes i32) (param $qa i32) (result f64)
    (local $q v128) (local $acc v128)
    (local.set $q (i16x8.splat (local.get $qa)))
    (local.set $acc (call $screluHalf (local.get $us) (local.get $w) (local.get $bytes) (local.get $q) (v128.const i64x2 0 0)))
    (local.set $acc (call $screluHalf (local.get $them) (i32.add (local.get $w) (local.get $bytes)) (local.get $bytes) (local.get $q) (local.get $acc)))
    (f64.convert_i64_s (i64.add (i64x2.extract_lane 0 (local.get $acc)) (i64x2.extract_lane 1 (local.get $acc))))))
