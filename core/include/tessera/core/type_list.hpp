#pragma once
// A compile-time list of types and the few operations the backends derive their tables
// from: membership, length, position, visiting each with a value, filtering, joining. A backend's
// list of strategies is one such list (cuda/strategies.hpp, made from strategies.def); dispatch, the automatic
// chooser, the command line and the tests walk it instead of repeating its names.
#include <cstddef>
#include <type_traits>

namespace tessera {

template <class... Ts>
struct type_list {
  static constexpr std::size_t size = sizeof...(Ts);
};

/// True when T is one of List's types.
template <class T, class List>
inline constexpr bool list_contains = false;
template <class T, class... Ts>
inline constexpr bool list_contains<T, type_list<Ts...>> = (std::is_same_v<T, Ts> || ...);

/// Position of T in List (List::size when absent).
template <class T, class List>
struct list_index;
template <class T, class... Ts>
struct list_index<T, type_list<Ts...>> {
  static constexpr std::size_t value = [] {
    constexpr bool same[] = {std::is_same_v<T, Ts>..., false};
    std::size_t i = 0;
    while (i < sizeof...(Ts) && !same[i]) ++i;
    return i;
  }();
};
template <class T, class List>
inline constexpr std::size_t list_index_v = list_index<T, List>::value;

/// Calls f(T{}) for each type T of List, in order.
template <class... Ts, class F>
constexpr void for_each_type(type_list<Ts...>, F&& f) {
  (f(Ts{}), ...);
}

/// Calls f(T{}) for the type at position i of List; false when i is out of range.
template <class... Ts, class F>
constexpr bool visit_type_at(type_list<Ts...>, std::size_t i, F&& f) {
  std::size_t k = 0;
  return ((k++ == i ? (f(Ts{}), true) : false) || ...);
}

/// The type at position I of List.
template <std::size_t I, class List>
struct type_at;
template <std::size_t I, class T, class... Ts>
struct type_at<I, type_list<T, Ts...>> : type_at<I - 1, type_list<Ts...>> {};
template <class T, class... Ts>
struct type_at<0, type_list<T, Ts...>> {
  using type = T;
};
template <std::size_t I, class List>
using type_at_t = typename type_at<I, List>::type;

/// List's types T for which Keep<T>::value holds, in order.
template <template <class> class Keep, class List>
struct filter_types;
template <template <class> class Keep>
struct filter_types<Keep, type_list<>> {
  using type = type_list<>;
};
template <template <class> class Keep, class T, class... Ts>
struct filter_types<Keep, type_list<T, Ts...>> {
  using rest = typename filter_types<Keep, type_list<Ts...>>::type;
  template <class L>
  struct prepend;
  template <class... Us>
  struct prepend<type_list<Us...>> {
    using type = type_list<T, Us...>;
  };
  using type = std::conditional_t<Keep<T>::value, typename prepend<rest>::type, rest>;
};
template <template <class> class Keep, class List>
using filter_types_t = typename filter_types<Keep, List>::type;

/// The types of Lists, one list after another: concat_types_t<type_list<A>, type_list<B, C>>
/// is type_list<A, B, C>.
template <class... Lists>
struct concat_types {
  using type = type_list<>;
};
template <class... Ts>
struct concat_types<type_list<Ts...>> {
  using type = type_list<Ts...>;
};
template <class... Ts, class... Us, class... Rest>
struct concat_types<type_list<Ts...>, type_list<Us...>, Rest...> : concat_types<type_list<Ts..., Us...>, Rest...> {};
template <class... Lists>
using concat_types_t = typename concat_types<Lists...>::type;

}  // namespace tessera
