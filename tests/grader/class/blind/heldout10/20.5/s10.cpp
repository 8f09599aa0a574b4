// ex5_Backward_WQ.cpp: the gradient of a loss with respect to W_Q, by the chain rule.
// Book section: 20.9 (exercise 5)
// Exercise: 20.5
//
// The loss is listing 109's outputs weighted by a fixed vector c and summed.
// Its gradient flows back through the blend of the values, through each row's
// softmax, through the dot products of queries and keys, and into the query
// projection. We check every element against central finite differences and
// exit with status 1 if any disagrees: this program is the gradient's test.
//
// You write:
//   Matrix backward_W_Q(const Attention& a, const Matrix& X, const Matrix& d_out);
//     a is self_attention(X, W_Q, W_K, W_V) (attention109.hpp), which keeps Q,
//     K, V and the weights; X is (n x d_model); d_out (n x d_v) is the
//     gradient of the loss with respect to a.out. Return d loss / d W_Q,
//     (d_k x d_model), the shape of W_Q: back through out = weights V, through
//     each row's softmax, through scores = Q K^T (no 1/sqrt(d_k)), and through
//     Q = X W_Q^T. Only the path through the queries counts: W_K and W_V are
//     held fixed.
// The grader checks it against central finite differences on random inputs of
// random sizes; main prints the lesson.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attention109.hpp"
#include "maths.hpp"  // exp_d

constexpr double H = 1e-4;          // finite-difference step, in double
constexpr double TOLERANCE = 1e-2;  // largest relative error we accept
// Relative errors below this are float rounding and print as "< 1e-04": then a
// correct answer summed in another order prints the same text, and grades the same.
constexpr double ROUNDING = 1e-4;

// The fixed vector that weights every output vector: loss = sum_i out_i . c
static const float C[DV] = {+1.0f, -2.0f, +0.5f};

// ---------------------------------------------------------------------------
// Forward: attention from the header, then the loss.

static float loss_of(const Matrix& out) {
    float loss = 0.0f;
    for (int i = 0; i < out.rows; i++) loss += dot(out.row(i), C, DV);
    return loss;
}

// ---------------------------------------------------------------------------
// Backward: each step undoes one forward step, last one first.

// loss = sum_i out_i . c  ->  d out[i][k] = c[k]
static Matrix loss_backward(int positions) {
    Matrix d_out(positions, DV);  // (SL x DV)
    for (int i = 0; i < positions; i++)
        for (int k = 0; k < DV; k++) d_out(i, k) = C[k];
    return d_out;
}

// my steps: gradW = gradOut V^T, softmax back per row, gradQ = gradS K, answer = gradQ^T X
static Matrix backward_W_Q(const Attention &att, const Matrix &input, const Matrix &gradOut)
{
    Matrix gradW = matmul(gradOut, transpose(att.V));
    Matrix gradS(gradW.rows, gradW.cols);
    for (int r = 0; r < gradS.rows; r++)
    {
        float total = 0;
        for (int c = 0; c < gradS.cols; c++)
            total += att.weights(r, c) * gradW(r, c);
        for (int c = 0; c < gradS.cols; c++)
            gradS(r, c) = att.weights(r, c) * (gradW(r, c) - total);
    }

    Matrix gradQ = matmul(gradS, att.K);

    return matmul(transpose(gradQ), input);
}

// ---------------------------------------------------------------------------
// The same loss again, written out in double, for the finite differences: a
// separate computation, so a slip in the float code is not repeated here.

static double loss_in_double(const Matrix& X, const std::vector<double>& WQ, const Matrix& WK, const Matrix& WV) {
    double Q[SL][DK], K[SL][DK], V[SL][DV];
    for (int i = 0; i < SL; i++) {
        for (int k = 0; k < DK; k++) {
            Q[i][k] = K[i][k] = 0.0;
            for (int m = 0; m < DM; m++) {
                Q[i][k] += WQ[k * DM + m] * X(i, m);
                K[i][k] += double(WK(k, m)) * X(i, m);
            }
        }
        for (int k = 0; k < DV; k++) {
            V[i][k] = 0.0;
            for (int m = 0; m < DM; m++) V[i][k] += double(WV(k, m)) * X(i, m);
        }
    }
    double loss = 0.0;
    for (int i = 0; i < SL; i++) {
        double w[SL], biggest = -INFINITY, total = 0.0;
        for (int j = 0; j < SL; j++) {
            w[j] = 0.0;
            for (int k = 0; k < DK; k++) w[j] += Q[i][k] * K[j][k];
            biggest = std::fmax(biggest, w[j]);
        }
        for (int j = 0; j < SL; j++) total += (w[j] = exp_d(w[j] - biggest));
        for (int k = 0; k < DV; k++) {
            double out = 0.0;
            for (int j = 0; j < SL; j++) out += w[j] / total * V[j][k];
            loss += out * C[k];
        }
    }
    return loss;
}

static std::string relative_error_text(double relative) {
    char text[32];
    if (relative < ROUNDING) std::snprintf(text, sizeof text, "< %.0e", ROUNDING);
    else std::snprintf(text, sizeof text, "%.1e", relative);
    return text;
}

int main() {
    Matrix X = sentence_109();
    Matrix WQ = WQ_109(), WK = WK_109(), WV = WV_109();

    // Forward, keeping Q, K, V and the weights for the backward pass.
    Attention a = self_attention(X, WQ, WK, WV);
    float loss = loss_of(a.out);

    // Backward, from the loss to W_Q.
    Matrix d_out = loss_backward(SL);         // (SL x DV)
    Matrix d_WQ = backward_W_Q(a, X, d_out);  // (DK x DM), the shape of W_Q

    std::printf("Backward pass for W_Q through listing 109's attention\n\n");
    std::printf("loss = sum over positions i of out_i . c, c = [%+.1f, %+.1f, %+.1f]\n", C[0], C[1], C[2]);
    std::printf("loss = %+.5f\n\n", loss);
    std::printf("Chain rule, from the loss back to W_Q:\n");
    std::printf("  d out[i][k]     = c[k]                                   loss = sum_i out_i . c\n");
    std::printf("  d weights[i][j] = sum_k d out[i][k] V[j][k]              out = weights V\n");
    std::printf("  d scores[i][j]  = weights[i][j] (d weights[i][j]\n");
    std::printf("                    - sum_m weights[i][m] d weights[i][m])  weights = softmax(scores)\n");
    std::printf("  d Q[i][k]       = sum_j d scores[i][j] K[j][k]           scores = Q K^T\n");
    std::printf("  d W_Q[k][m]     = sum_i d Q[i][k] X[i][m]                Q = X W_Q^T\n\n");

    std::printf("d loss / d W_Q against central differences in double, h = %g\n\n", H);
    std::printf("  element     analytic    numeric   relative error\n");
    std::vector<double> wq(WQ.data.begin(), WQ.data.end());
    double worst = 0.0;
    for (int k = 0; k < DK; k++)
        for (int m = 0; m < DM; m++) {
            double kept = wq[k * DM + m];
            wq[k * DM + m] = kept + H;
            double up = loss_in_double(X, wq, WK, WV);
            wq[k * DM + m] = kept - H;
            double down = loss_in_double(X, wq, WK, WV);
            wq[k * DM + m] = kept;
            double numeric = (up - down) / (2 * H);
            double analytic = d_WQ(k, m);
            double scale = std::fmax(std::fabs(analytic), std::fabs(numeric));
            double relative = scale > 0 ? std::fabs(analytic - numeric) / scale : 0.0;
            worst = std::fmax(worst, relative);
            std::printf("  W_Q[%d][%d]  %+.5f  %+.5f   %s\n", k, m, analytic, numeric,
                        relative_error_text(relative).c_str());
        }

    bool ok = worst <= TOLERANCE;
    std::printf("\nLargest relative error: %s (tolerance %.0e)\n", relative_error_text(worst).c_str(), TOLERANCE);
    std::printf("Gradient check: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
