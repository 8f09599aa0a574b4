// tests/unit/tensor_print_test.cpp: tensor_str() in common/matrix.hpp against PyTorch's
// print(t) for float32 tensors.
//
// Each expected string follows the rules of torch/_tensor_str.py (_Formatter, default
// options), worked out by hand and checked with an independent Python port of those
// rules that formats with Python's own str.format, as PyTorch does. The ones marked
// "PyTorch" are outputs PyTorch is known to print (the book, its tutorials).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "check.hpp"
#include "matrix.hpp"

static const float inf = std::numeric_limits<float>::infinity();
static const float not_a_number = std::numeric_limits<float>::quiet_NaN();

static void expect(const std::string& got, const std::string& want, const char* what) {
    check(got == want, what);
    if (got != want) std::printf("  got:\n%s\n  want:\n%s\n", got.c_str(), want.c_str());
}

// A 1-D tensor written out, as torch.tensor([...]) takes it.
static std::string vector_str(const std::vector<float>& values) { return tensor_str(values); }

int main() {
    // The book's three lines (section 15.1.2, PyTorch).
    expect(vector_str({1.0f, -1.0f}), "tensor([ 1., -1.])", "whole numbers: '1.' and a common width");
    expect(vector_str({0.8807970779778823f, 0.11920292202211755f}), "tensor([0.8808, 0.1192])",
           "fractions: 4 decimals");
    expect(vector_str({1.7615941559557646f, 0.4768116880884702f}), "tensor([1.7616, 0.4768])", "fractions above 1");

    // Integer mode: every finite entry whole; width = longest "%.0f" plus the '.'.
    expect(vector_str({1, -1, 100}), "tensor([  1.,  -1., 100.])", "whole numbers padded to the widest");
    expect(tensor_str(Matrix(2, 2, {1, 2, -3, 4})), "tensor([[ 1.,  2.],\n        [-3.,  4.]])",
           "2-D: rows under each other, one width for the whole tensor");
    expect(vector_str({0, 0}), "tensor([0., 0.])", "all zeros: width 1");
    expect(vector_str({1, 1000}), "tensor([   1., 1000.])", "ratio of exactly 1000 stays whole");
    expect(vector_str({100000000.0f}), "tensor([100000000.])", "1e8 itself stays whole");
    expect(vector_str({-0.0f, 1}), "tensor([-0., 1.])", "zeros do not set the width, -0 keeps its sign");

    // Non-finite entries never choose the style; PyTorch prints them as inf, -inf, nan.
    expect(vector_str({0, 0, -inf}), "tensor([0., 0., -inf])", "a masked score row");
    expect(tensor_str(Matrix(3, 3, {0, -inf, -inf, 0, 0, -inf, 0, 0, 0})),
           "tensor([[0., -inf, -inf],\n        [0., 0., -inf],\n        [0., 0., 0.]])",
           "the causal mask (PyTorch): width 1, so the columns do not line up");
    expect(vector_str({inf, 2}), "tensor([inf, 2.])", "inf in integer mode has no '.'");
    expect(vector_str({inf, not_a_number}), "tensor([inf, nan])", "nothing finite");
    expect(vector_str({not_a_number, 1.5f}), "tensor([   nan, 1.5000])", "nan padded to the width");
    expect(vector_str({-not_a_number, 1.5f}), "tensor([   nan, 1.5000])", "a negative NaN is still 'nan'");
    expect(vector_str({-inf, 0.5f, 3}), "tensor([  -inf, 0.5000, 3.0000])", "-inf padded to the width");

    // Fixed mode: 4 decimals, rounded half to even on the exact float value.
    expect(vector_str({0.5f, 1.0f}), "tensor([0.5000, 1.0000])", "one fraction makes every entry fixed");
    expect(vector_str({0, 0.5f}), "tensor([0.0000, 0.5000])", "zero in fixed mode");
    expect(vector_str({-0.5f, 0.25f}), "tensor([-0.5000,  0.2500])", "minus sign widens the column");
    expect(vector_str({1.0f, 1.00001f}), "tensor([1.0000, 1.0000])", "not whole, though it prints so");
    expect(vector_str({0.03125f, 1}), "tensor([0.0312, 1.0000])", "an exact tie rounds to even");
    expect(vector_str({0.12345f, 1}), "tensor([0.1235, 1.0000])", "0.12345f is just above the tie");
    expect(vector_str({123456.5f}), "tensor([123456.5000])", "large, but below 1e8");
    expect(vector_str({0.00012f, 0.1f}), "tensor([0.0001, 0.1000])", "smallest 1.2e-4 is not below 1e-4");

    // Scientific mode: largest/smallest > 1000, largest > 1e8, or (fractions) smallest < 1e-4.
    expect(vector_str({1e-5f, 1}), "tensor([1.0000e-05, 1.0000e+00])", "smallest below 1e-4");
    expect(vector_str({0.00009f, 0.1f}), "tensor([9.0000e-05, 1.0000e-01])", "9e-5 is below 1e-4");
    expect(vector_str({0.001f, 2}), "tensor([1.0000e-03, 2.0000e+00])", "ratio 2000");
    expect(vector_str({1, 10000}), "tensor([1.0000e+00, 1.0000e+04])", "whole numbers, ratio 10000");
    expect(vector_str({1e9f}), "tensor([1.0000e+09])", "above 1e8");
    expect(vector_str({5e-5f, 1e-3f}), "tensor([5.0000e-05, 1.0000e-03])", "below 1e-4, though the ratio is 20");
    expect(vector_str({-1e-5f, 1}), "tensor([-1.0000e-05,  1.0000e+00])", "scientific, padded");

    // Lines wrap at 80 columns: (80 - indent) / (width + 2) entries a line.
    std::vector<float> halves;
    for (int i = 0; i < 20; i++) halves.push_back(i + 0.5f);
    expect(tensor_str(halves),
           "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
           "         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,\n"
           "        16.5000, 17.5000, 18.5000, 19.5000])",
           "1-D: 8 entries of width 7 a line");
    std::vector<float> powers;
    for (int k = 0; k < 9; k++) powers.push_back(float(std::pow(10.0, -k)));
    expect(tensor_str(powers),
           "tensor([1.0000e+00, 1.0000e-01, 1.0000e-02, 1.0000e-03, 1.0000e-04, 1.0000e-05,\n"
           "        1.0000e-06, 1.0000e-07, 1.0000e-08])",
           "1-D scientific: 6 entries a line");
    Matrix eighths(2, 12);  // (2 x 12)
    for (int i = 0; i < 24; i++) eighths.data[i] = i / 8.0f;
    expect(tensor_str(eighths),
           "tensor([[0.0000, 0.1250, 0.2500, 0.3750, 0.5000, 0.6250, 0.7500, 0.8750, 1.0000,\n"
           "         1.1250, 1.2500, 1.3750],\n"
           "        [1.5000, 1.6250, 1.7500, 1.8750, 2.0000, 2.1250, 2.2500, 2.3750, 2.5000,\n"
           "         2.6250, 2.7500, 2.8750]])",
           "2-D rows wrap one column further in");

    // More than 1000 entries: the first and last 3 along each dimension; the style is
    // chosen from those alone.
    std::vector<float> counting;
    for (int i = 0; i <= 1000; i++) counting.push_back(float(i));
    expect(tensor_str(counting), "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])",
           "1001 entries summarised (PyTorch, torch.arange(1001.))");
    std::vector<float> thousand(counting.begin(), counting.end() - 1);
    check(tensor_str(thousand).find("...") == std::string::npos, "1000 entries are all printed");
    Matrix diagonals(50, 30);  // (50 x 30): entry j - i
    for (int i = 0; i < 50; i++)
        for (int j = 0; j < 30; j++) diagonals(i, j) = float(j - i);
    expect(tensor_str(diagonals),
           "tensor([[  0.,   1.,   2.,  ...,  27.,  28.,  29.],\n"
           "        [ -1.,   0.,   1.,  ...,  26.,  27.,  28.],\n"
           "        [ -2.,  -1.,   0.,  ...,  25.,  26.,  27.],\n"
           "        ...,\n"
           "        [-47., -46., -45.,  ..., -20., -19., -18.],\n"
           "        [-48., -47., -46.,  ..., -21., -20., -19.],\n"
           "        [-49., -48., -47.,  ..., -22., -21., -20.]])",
           "2-D summarised: rows and columns");
    Matrix ramps(6, 200);  // (6 x 200): 1200 entries, but only 6 rows, so every row shows
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 200; j++) ramps(i, j) = 0.25f * j;
    std::string ramp_row = "[ 0.0000,  0.2500,  0.5000,  ..., 49.2500, 49.5000, 49.7500]";
    std::string ramp_rows = "tensor([" + ramp_row;
    for (int i = 1; i < 6; i++) ramp_rows += ",\n        " + ramp_row;
    expect(tensor_str(ramps), ramp_rows + "])", "2-D summarised along the columns only");
    Matrix levels(7, 150);  // (7 x 150): row i all i; 7 rows, one more than 6, so one is left out
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 150; j++) levels(i, j) = float(i);
    expect(tensor_str(levels),
           "tensor([[0., 0., 0.,  ..., 0., 0., 0.],\n"
           "        [1., 1., 1.,  ..., 1., 1., 1.],\n"
           "        [2., 2., 2.,  ..., 2., 2., 2.],\n"
           "        ...,\n"
           "        [4., 4., 4.,  ..., 4., 4., 4.],\n"
           "        [5., 5., 5.,  ..., 5., 5., 5.],\n"
           "        [6., 6., 6.,  ..., 6., 6., 6.]])",
           "7 rows summarised to 6");
    Matrix counts(40, 40);  // (40 x 40): 0 .. 1599, largest/smallest 1599 > 1000
    for (int i = 0; i < 1600; i++) counts.data[i] = float(i);
    std::string first_row =
        "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 3.7000e+01, 3.8000e+01,\n"
        "         3.9000e+01],\n";
    expect(tensor_str(counts).substr(0, first_row.size()), first_row,
           "summarised rows wrap too, ' ...' counting as an entry");

    // Empty tensors, as PyTorch shows them.
    expect(tensor_str(std::vector<float>{}), "tensor([])", "empty 1-D");
    expect(tensor_str(Matrix(0, 3)), "tensor([], size=(0, 3))", "empty 2-D names its shape");

    // A row of a Matrix prints as a 1-D tensor.
    Matrix pairs(2, 2, {2, 0, 0, 4});
    expect(tensor_str(pairs.row(1), 2), "tensor([0., 4.])", "one row as 1-D");
    return check_summary("tensor_print_test");
}
